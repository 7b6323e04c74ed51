// The reference agent holds what it emits to the published envelope.schema.json too: an envelope
// the contract forbids (an empty allowed_responders, a prompt_id outside the published UUID pattern,
// a deadline not in the future at emission) fails the step instead of reaching a client.
import { describe, expect, it } from 'vitest';
import { buildPromptEnvelope } from '../rig/agent/promptEnvelopeBuilder.ts';
import { GuardedValidator } from '../rig/protocol/guardedValidator.ts';

const options = {
  promptId: '7d444840-9dc0-41e5-9c7b-c2bd6d7a1b7e',
  now: new Date('2026-01-01T00:00:00Z'),
  validator: new GuardedValidator(),
  allowOversizedSchema: false,
};
const step = { text: 'Approve?', response_schema: { type: 'object', additionalProperties: false } };

describe('the agent emits only envelopes envelope.schema.json admits', () => {
  it('builds a valid one, deadline after now', () => {
    const built = buildPromptEnvelope({ ...step, deadline_ms: 1_000, allowed_responders: ['any'] }, options);
    expect(built).toEqual({
      ok: true,
      envelope: {
        prompt_id: options.promptId,
        prompt: 'Approve?',
        response_schema: step.response_schema,
        deadline: '2026-01-01T00:00:01.000Z',
        allowed_responders: ['any'],
      },
    });
  });

  it.each([
    [
      'an empty allowed_responders',
      { ...step, allowed_responders: [] },
      options,
      /envelope\.schema\.json: \/allowed_responders must NOT have fewer than 1 items/,
    ],
    [
      'a prompt_id of UUID version 7',
      step,
      { ...options, promptId: '018f3c52-5b0e-7a3c-9f43-2f1e7c9d8a11' },
      /envelope\.schema\.json: \/prompt_id must match pattern/,
    ],
    ['a deadline not in the future', { ...step, deadline_ms: 0 }, options, /deadline_ms must be positive/],
  ])('refuses %s', (_name, s, o, reason) => {
    const built = buildPromptEnvelope(s as never, o);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.reason).toMatch(reason);
  });
});
