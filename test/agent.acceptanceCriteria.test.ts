// readCriteria: a closed, typed, bounded object (its fields; the artifactSchema guards are in
// agent.acceptanceCriteriaSchema.test.ts).
import { describe, expect, it } from 'vitest';
import { readCriteria } from '../rig/agent/acceptanceCriteria.ts';
import {
  MAX_ACCEPTANCE_TIMEOUT_S,
  MAX_ARTIFACT_NAME_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_REJECTIONS_CAP,
  MAX_REQUIRED_ARTIFACTS,
} from '../rig/protocol/acceptance.ts';
import { DEFAULT_CRITERIA, refusal, validator } from './support/criteriaRefusal.ts';

describe('readCriteria: fields', () => {
  it('gives the finite defaults when the criteria are absent or empty', () => {
    expect(readCriteria(undefined, validator)).toEqual(DEFAULT_CRITERIA);
    expect(readCriteria({}, validator)).toEqual(DEFAULT_CRITERIA);
  });

  it('reads every field within its bounds', () => {
    const schema = { type: 'object', required: ['score'], properties: { score: { type: 'number', minimum: 0 } } };
    expect(
      readCriteria(
        {
          description: 'a report with a score',
          artifactSchema: schema,
          requiredArtifacts: ['report', 'x'.repeat(MAX_ARTIFACT_NAME_CHARS)],
          evaluator: 'agent',
          acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S,
          maxRejections: 0,
        },
        validator,
      ),
    ).toEqual({
      description: 'a report with a score',
      artifactSchema: schema,
      requiredArtifacts: ['report', 'x'.repeat(MAX_ARTIFACT_NAME_CHARS)],
      evaluator: 'agent',
      acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S,
      maxRejections: 0,
    });
    expect(
      readCriteria({ evaluator: 'human', acceptanceTimeoutSeconds: 1, maxRejections: MAX_REJECTIONS_CAP }, validator),
    ).toMatchObject({
      evaluator: 'human',
      acceptanceTimeoutSeconds: 1,
      maxRejections: MAX_REJECTIONS_CAP,
    });
  });

  it('refuses what is not an object, and unknown fields', () => {
    for (const raw of [null, 'client', 3, [], [{ evaluator: 'client' }]])
      expect(refusal(raw)).toMatch(/criteria must be a JSON object/);
    expect(refusal({ evaluator: 'client', maxRejection: 2 })).toMatch(/unknown field "maxRejection"/);
  });

  it('refuses an unknown evaluator', () => {
    expect(refusal({ evaluator: 'robot' })).toMatch(/criteria\.evaluator "robot" is not one of client, agent, human/);
    expect(refusal({ evaluator: 'Client' })).toMatch(/criteria\.evaluator/);
    expect(refusal({ evaluator: null })).toMatch(/criteria\.evaluator/);
  });

  it('refuses negative, non-integer, non-number and out-of-range numbers', () => {
    expect(refusal({ maxRejections: -1 })).toMatch(/criteria\.maxRejections is -1; it must be between 0 and 10/);
    expect(refusal({ maxRejections: MAX_REJECTIONS_CAP + 1 })).toMatch(/criteria\.maxRejections is 11/);
    expect(refusal({ maxRejections: 1.5 })).toMatch(/criteria\.maxRejections must be an integer/);
    expect(refusal({ maxRejections: '3' })).toMatch(/criteria\.maxRejections must be an integer, not "3"/);
    expect(refusal({ acceptanceTimeoutSeconds: 0 })).toMatch(
      /criteria\.acceptanceTimeoutSeconds is 0; it must be between 1 and 604800/,
    );
    expect(refusal({ acceptanceTimeoutSeconds: -5 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: MAX_ACCEPTANCE_TIMEOUT_S + 1 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: Number.MAX_SAFE_INTEGER * 4 })).toMatch(/acceptanceTimeoutSeconds/);
    expect(refusal({ acceptanceTimeoutSeconds: null })).toMatch(/acceptanceTimeoutSeconds must be an integer/);
  });

  it('bounds requiredArtifacts and description', () => {
    expect(refusal({ requiredArtifacts: 'report' })).toMatch(/criteria\.requiredArtifacts must be an array/);
    expect(refusal({ requiredArtifacts: ['a', ''] })).toMatch(
      /criteria\.requiredArtifacts\[1\] must be a non-empty string/,
    );
    expect(refusal({ requiredArtifacts: [7] })).toMatch(/criteria\.requiredArtifacts\[0\]/);
    expect(refusal({ requiredArtifacts: ['x'.repeat(MAX_ARTIFACT_NAME_CHARS + 1)] })).toMatch(
      /requiredArtifacts\[0\] has 257 characters/,
    );
    const many = Array.from({ length: MAX_REQUIRED_ARTIFACTS + 1 }, (_, i) => `a${i}`);
    expect(readCriteria({ requiredArtifacts: many.slice(1) }, validator).requiredArtifacts).toHaveLength(
      MAX_REQUIRED_ARTIFACTS,
    );
    expect(refusal({ requiredArtifacts: many })).toMatch(/requiredArtifacts has 65 names; at most 64/);
    expect(readCriteria({ description: 'd'.repeat(MAX_DESCRIPTION_CHARS) }, validator).description).toHaveLength(
      MAX_DESCRIPTION_CHARS,
    );
    expect(refusal({ description: 'd'.repeat(MAX_DESCRIPTION_CHARS + 1) })).toMatch(
      /criteria\.description has 4097 characters/,
    );
    expect(refusal({ description: { text: 'x' } })).toMatch(/criteria\.description must be a string/);
  });
});
