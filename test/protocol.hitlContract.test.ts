// The hitl-prompt/v1 contract files are normative for agent and rig, and the rig reads them as
// published (rig/protocol/contracts/hitl-prompt-v1/), not a hand transcription. Every envelope the
// rig receives is held against envelope.schema.json: prompt 1..4096 characters, a UUID prompt_id of
// the published pattern, response_schema of top-level type object, allowed_responders patterns (an
// unknown one is ignored as the spec asks, and reported), an RFC 3339 deadline that is in the future
// at emission by the agent's own clock (the status timestamp), so that replays and skew do not count.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvelopeGuard } from '../rig/client/envelopeGuard.ts';
import { HITL_PROMPT_URI, invalidResponseExample, promptEnvelopeSchema } from '../rig/protocol/hitlPrompt.ts';

const contractFile = (name: string) =>
  JSON.parse(readFileSync(new URL(`../rig/protocol/contracts/hitl-prompt-v1/${name}`, import.meta.url), 'utf8'));
const guard = new EnvelopeGuard();
const PROMPT_ID = '7d444840-9dc0-41e5-9c7b-c2bd6d7a1b7e';
const envelope = (extra: Record<string, unknown> = {}) => ({
  prompt_id: PROMPT_ID,
  prompt: 'Approve?',
  response_schema: { type: 'object', additionalProperties: false },
  ...extra,
});
const status = (env: unknown, timestamp: string) => ({
  state: 'TASK_STATE_INPUT_REQUIRED' as const,
  timestamp,
  message: { messageId: 'm', role: 'ROLE_AGENT' as const, parts: [], metadata: { [HITL_PROMPT_URI]: env } },
});

describe('the published contract files', () => {
  it('are what rig/protocol uses, unchanged', () => {
    expect(promptEnvelopeSchema).toEqual(contractFile('envelope.schema.json'));
    expect(invalidResponseExample).toEqual(contractFile('examples/invalid-response-422.json'));
  });

  it('the example prompt event carries an envelope the guard accepts (its deadline after its timestamp)', () => {
    const event = contractFile('examples/prompt-event.json');
    const check = guard.fromStatus({ ...event.status, state: 'TASK_STATE_INPUT_REQUIRED' });
    expect(check?.ok, JSON.stringify(check)).toBe(true);
  });
});

describe('envelopes held against envelope.schema.json', () => {
  it.each([
    [
      'a prompt of 4097 characters',
      envelope({ prompt: 'q'.repeat(4097) }),
      /\/prompt must NOT have more than 4096 characters/,
    ],
    [
      'a prompt_id of UUID version 0',
      envelope({ prompt_id: '00000000-0000-0000-0000-000000000000' }),
      /\/prompt_id must match pattern/,
    ],
    [
      'an empty allowed_responders',
      envelope({ allowed_responders: [] }),
      /\/allowed_responders must NOT have fewer than 1 items/,
    ],
    [
      'a deadline without time zone',
      envelope({ deadline: '2030-01-01T00:00:00' }),
      /\/deadline must match format "date-time"/,
    ],
  ])('rejects %s', (_name, raw, reason) => {
    const check = new EnvelopeGuard().check(raw);
    expect(!check.ok && check.reason).toMatch(reason);
  });

  it('accepts a prompt of exactly 4096 characters', () => {
    expect(new EnvelopeGuard().check(envelope({ prompt: 'q'.repeat(4096) })).ok).toBe(true);
  });

  it(
    'a deadline not after the status timestamp (the agent clock at emission) ' +
      'is malformed, however late the rig sees it',
    () => {
      const check = new EnvelopeGuard().fromStatus(
        status(envelope({ deadline: '2026-05-09T18:30:00Z' }), '2026-05-09T18:30:00Z'),
      );
      expect(check?.ok).toBe(false);
      expect(check && !check.ok && check.reason).toContain('is not in the future at emission');
    },
  );

  it(
    'a replayed prompt whose deadline has passed since its emission is fine: ' +
      'the timestamp, not the rig clock, decides',
    () => {
      const check = new EnvelopeGuard().fromStatus(
        status(envelope({ deadline: '2020-01-01T00:05:00Z' }), '2020-01-01T00:00:00Z'),
      );
      expect(check?.ok).toBe(true);
      expect(check?.ok && check.problems).toEqual([]);
    },
  );

  it('without a status timestamp, a past deadline is noted, not held against the agent', () => {
    const check = new EnvelopeGuard().fromStatus(status(envelope({ deadline: '2020-01-01T00:00:00Z' }), ''));
    expect(check?.ok).toBe(true);
    expect(check?.ok && check.problems[0]).toMatch(/has passed by the rig's clock.*replayed prompt or clock skew/);
  });
});
