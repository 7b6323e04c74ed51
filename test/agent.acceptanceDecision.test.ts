// The decision reader refuses everything but the two closed shapes, with a one-line reason.
import { describe, expect, it } from 'vitest';
import { hasDecision, readDecision } from '../rig/agent/decisionInput.ts';
import { A2AError } from '../rig/protocol/errorCodes.ts';
import {
  ACCEPTANCE_DECISION_INVALID,
  ACCEPTANCE_URI,
  DECISION_KEY,
  REJECTION_REASONS,
} from '../rig/protocol/acceptance.ts';

function refusal(raw: unknown): { reason: string } {
  try {
    readDecision(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(A2AError);
    const e = err as A2AError;
    expect(e.code).toBe(ACCEPTANCE_DECISION_INVALID);
    expect(e.message).toBe('acceptance_decision_invalid');
    const data = e.data as { extension: string; reason: string };
    expect(data.extension).toBe(ACCEPTANCE_URI);
    expect(data.reason).not.toMatch(/\n/);
    return data;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('readDecision', () => {
  it('reads accept, and reject with every reason, with and without retry', () => {
    expect(readDecision({ action: 'accept' })).toEqual({ action: 'accept' });
    for (const reason of REJECTION_REASONS) {
      expect(readDecision({ action: 'reject', reason })).toEqual({ action: 'reject', reason });
      expect(readDecision({ action: 'reject', reason, retry: false })).toEqual({
        action: 'reject',
        reason,
        retry: false,
      });
      expect(readDecision({ action: 'reject', reason, retry: true })).toEqual({
        action: 'reject',
        reason,
        retry: true,
      });
    }
  });

  it('refuses what is not a decision object', () => {
    for (const raw of [undefined, null, 'accept', 1, true, [], [{ action: 'accept' }]]) {
      expect(refusal(raw).reason).toMatch(/must be a JSON object/);
    }
  });

  it('refuses unknown and missing actions, naming the field', () => {
    expect(refusal({}).reason).toMatch(/decision\.action is required/);
    expect(refusal({ action: 'approve' }).reason).toMatch(/decision\.action "approve" is not/);
    expect(refusal({ action: 'ACCEPT' }).reason).toMatch(/decision\.action/);
    expect(refusal({ action: 1 }).reason).toMatch(/decision\.action "1"/);
  });

  it('refuses a reject without a reason, or with one outside the closed enum', () => {
    expect(refusal({ action: 'reject' }).reason).toMatch(/decision\.reason is required/);
    expect(refusal({ action: 'reject', reason: 'schema_mismatch' }).reason).toMatch(
      /decision\.reason "schema_mismatch" is not one of/,
    );
    expect(refusal({ action: 'reject', reason: 7 }).reason).toMatch(/decision\.reason/);
    expect(refusal({ action: 'reject', reason: null }).reason).toMatch(/decision\.reason/);
  });

  it('refuses reason or retry on accept, a non-boolean retry, and unknown fields', () => {
    expect(refusal({ action: 'accept', retry: true }).reason).toMatch(/decision\.retry is only allowed/);
    expect(refusal({ action: 'accept', reason: 'OTHER' }).reason).toMatch(/decision\.reason is only allowed/);
    expect(refusal({ action: 'reject', reason: 'OTHER', retry: 'false' }).reason).toMatch(
      /decision\.retry must be a boolean/,
    );
    expect(refusal({ action: 'accept', note: 'x' }).reason).toMatch(/unknown field "note"/);
  });

  it('keeps a hostile field name or value out of the reason beyond a short quote', () => {
    const long = 'x'.repeat(100_000);
    expect(refusal({ action: long }).reason.length).toBeLessThan(200);
    expect(refusal({ [`${long}\n`]: 1 }).reason.length).toBeLessThan(200);
  });
});

describe('hasDecision', () => {
  it('is true only when the metadata object carries the decision key (valid or not)', () => {
    expect(hasDecision({ [DECISION_KEY]: { action: 'accept' } })).toBe(true);
    expect(hasDecision({ [DECISION_KEY]: 'junk' })).toBe(true);
    expect(hasDecision({ other: 1 })).toBe(false);
    expect(hasDecision(undefined)).toBe(false);
    expect(hasDecision([DECISION_KEY])).toBe(false);
    expect(hasDecision(Object.create({ [DECISION_KEY]: { action: 'accept' } }))).toBe(false);
  });
});
