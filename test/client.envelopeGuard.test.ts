// The client's S-2 duties on every prompt envelope it receives: the 64 KiB bound (exactly 65,536
// bytes is allowed), the envelope schema, the subschema depth bound, linear-time patterns, and
// pathological JSON that must be refused without recursion. Also end to end: an agent that emits an
// oversized schema (the reference agent's fault) has its prompt flagged as malformed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_KEY } from '../rig/agent/script.ts';
import { HITL_PROMPT_URI, serializedSchemaBytes } from '../rig/protocol/hitlPrompt.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { EnvelopeGuard } from '../rig/client/envelopeGuard.ts';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { cpuTimed } from './support/cpuTimed.ts';

const guard = new EnvelopeGuard();
const PROMPT_ID = '7d444840-9dc0-41e5-9c7b-c2bd6d7a1b7e';
const envelope = (response_schema: unknown, extra: Record<string, unknown> = {}) => ({
  prompt_id: PROMPT_ID,
  prompt: 'Approve?',
  response_schema,
  ...extra,
});
const closed = { type: 'object', additionalProperties: false, properties: { ok: { type: 'boolean' } } };

/** An object schema whose serialization is exactly `bytes` long. */
function schemaOfBytes(bytes: number): Record<string, unknown> {
  const base = serializedSchemaBytes({ type: 'object', additionalProperties: false, description: '' });
  return { type: 'object', additionalProperties: false, description: 'x'.repeat(bytes - base) };
}

/** A schema `depth` subschemas deep (properties inside properties). */
function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 1; i < depth; i++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe('S-2: response_schema size', () => {
  it('accepts a schema of exactly 65,536 bytes', () => {
    const schema = schemaOfBytes(65_536);
    expect(serializedSchemaBytes(schema)).toBe(65_536);
    const check = guard.check(envelope(schema));
    expect(check.ok).toBe(true);
  });

  it('rejects a schema of 65,537 bytes as a malformed prompt, keeping the prompt_id for the report', () => {
    const check = guard.check(envelope(schemaOfBytes(65_537)));
    expect(check).toEqual({
      ok: false,
      promptId: PROMPT_ID,
      reason: 'malformed hitl-prompt/v1 envelope: response_schema is 65537 bytes serialized; S-2 allows at most 65536',
    });
  });
});

describe('S-2: depth and time bounds', () => {
  it('accepts a schema 32 subschemas deep and rejects one nested past 32', () => {
    expect(guard.check(envelope(nested(32))).ok).toBe(true);
    const check = guard.check(envelope(nested(33)));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(/deeper than 32 levels/);
  });

  it('refuses pathologically nested JSON without recursing (no stack overflow)', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const { value: check, ms } = cpuTimed(() => guard.check(envelope({ type: 'object', const: deep })));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(/nests deeper than 256 JSON levels/);
    expect(ms).toBeLessThan(250);
  });

  it('validates against a catastrophic-backtracking pattern in linear time', () => {
    const check = guard.check(envelope({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }));
    if (!check.ok) throw new Error(check.reason);
    const { value: errors, ms } = cpuTimed(() => check.schema.validate({ s: `${'a'.repeat(50_000)}!` }));
    // Backtracking would take longer than anyone waits on 50,001 characters; linear matching takes
    // milliseconds of CPU. The bound only tells the two apart.
    expect(ms).toBeLessThan(2_000);
    expect(errors.map((e) => e.keyword)).toEqual(['pattern']);
    expect(check.schema.validate({ s: 'aaaa' })).toEqual([]);
  });

  it('refuses patterns RE2 cannot run (lookaround) instead of falling back to backtracking', () => {
    const check = guard.check(envelope({ type: 'object', properties: { s: { type: 'string', pattern: '^(?=a)a$' } } }));
    expect(!check.ok && check.reason).toMatch(/not a usable JSON Schema/);
  });
});

describe('envelope shape (envelope.schema.json)', () => {
  it.each([
    ['a non-object envelope', 'just text', /must be a JSON object/],
    ['a missing prompt_id', { prompt: 'Q', response_schema: closed }, /prompt_id/],
    [
      'a prompt_id that is no UUID',
      { prompt_id: 'abc', prompt: 'Q', response_schema: closed },
      /\/prompt_id must match pattern/,
    ],
    ['an empty prompt', envelope(closed, { prompt: '' }), /\/prompt must NOT have fewer than 1 characters/],
    ['an extra property', envelope(closed, { ui: 'modal' }), /must NOT have additional properties/],
    [
      'a non-object response_schema type',
      envelope({ type: 'array' }),
      /\/response_schema\/type must be equal to constant/,
    ],
    ['a bad deadline', envelope(closed, { deadline: 'tomorrow' }), /\/deadline must match format "date-time"/],
    ['a non-string responder', envelope(closed, { allowed_responders: [7] }), /allowed_responders\/0 must be string/],
  ])('rejects %s', (_name, raw, reason) => {
    const check = guard.check(raw);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(reason);
  });

  it(
    'accepts SHOULD-level deviations but lists them as problems; ' +
      'unknown responder patterns are ignored, as a contract finding',
    () => {
      const check = guard.check({
        prompt_id: PROMPT_ID,
        prompt: 'q',
        response_schema: { type: 'object' },
        allowed_responders: ['any', 'role:admin'],
      });
      expect(check.ok).toBe(true);
      expect(check.ok && check.problems).toEqual([
        'response_schema does not set additionalProperties: false (a SHOULD)',
      ]);
      expect(check.ok && check.contract).toEqual([
        `allowed_responders entry "role:admin" breaks envelope.schema.json's pattern (ignored, ` +
          'as the spec asks of an orchestrator)',
      ]);
    },
  );

  it('a prompt_id of a newer UUID version (RFC 9562) is usable, a contract finding; a non-UUID is not', () => {
    // The extension's own executor sends version-7 ids; the schema's pattern predates RFC 9562.
    const v7 = '00000000-0000-7000-8000-000000000281';
    const check = guard.check({ ...envelope(closed), prompt_id: v7 });
    expect(check.ok).toBe(true);
    expect(check.ok && check.contract).toEqual([
      `prompt_id ${v7} is a version-7 UUID (RFC 9562); envelope.schema.json's pattern allows versions 1-5`,
    ]);
    for (const bad of ['00000000-0000-9000-8000-000000000281', '00000000-0000-4000-c000-000000000281', 'abc'])
      expect(guard.check({ ...envelope(closed), prompt_id: bad }).ok, bad).toBe(false);
  });

  it('one guard checks every envelope against the contract, whatever schemas it compiled in between', () => {
    // The guard holds envelope.schema.json compiled; interleaved with response schemas of their
    // own (and a validator that rotated its cache), each envelope still gets its own verdict.
    const own = new EnvelopeGuard();
    const schemas = Array.from({ length: 300 }, (_, i) => ({ ...closed, description: `schema ${i}` }));
    for (const [i, schema] of schemas.entries()) {
      const bad = i % 3 === 1 ? { prompt: '' } : i % 3 === 2 ? { deadline: 'soon' } : {};
      const verdict = own.check(envelope(schema, bad));
      expect(verdict.ok, `envelope ${i}`).toBe(i % 3 === 0);
      if (!verdict.ok) expect(verdict.reason).toMatch(i % 3 === 1 ? /\/prompt / : /\/deadline /);
      else expect(verdict.schema.validate({ ok: 'no' })).toEqual([expect.objectContaining({ path: '/ok' })]);
    }
  });

  it('finds the envelope under the extension URI of a status message, and nothing where there is none', () => {
    const message = {
      messageId: 'm',
      role: 'ROLE_AGENT' as const,
      parts: [{ text: 'Approve?' }],
      metadata: { [HITL_PROMPT_URI]: envelope(closed) },
    };
    expect(guard.fromStatus({ state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '', message })?.ok).toBe(true);
    expect(guard.fromStatus({ state: 'TASK_STATE_WORKING', timestamp: '' })).toBeUndefined();
    expect(guard.fromEvent({ message })).toBeUndefined();
  });
});

describe('end to end: an agent that emits an oversized schema', () => {
  let agent: Awaited<ReturnType<typeof inProcessAgent>>;
  beforeAll(async () => {
    agent = await inProcessAgent(['emit-oversized-schema']);
  });
  afterAll(async () => agent?.cleanup());

  it('has its prompt flagged as malformed on the send result, the stream and the replay', async () => {
    const client = await A2AClient.open(agent.url);
    try {
      const steps = [{ prompt: { text: 'Big?', response_schema: schemaOfBytes(70_000) } }, { complete: {} }];
      const opened = await client.sendStream(userMessage({ data: { [SCRIPT_KEY]: { steps } } }));
      if (!opened.ok) throw new Error(JSON.stringify(opened.error));
      const prompted = await opened.stream.waitFor((e) => e.prompt !== undefined, 5_000);
      expect(prompted.prompt).toMatchObject({ ok: false, reason: expect.stringMatching(/70000 bytes serialized/) });
      const got = await client.getTask(prompted.taskId!);
      expect(got.ok && client.promptOf(got.value)?.ok).toBe(false);
      const socket = await client.replay(prompted.taskId!);
      const replayed = await socket.waitFor((e) => e.prompt !== undefined, 5_000);
      expect(replayed.prompt?.ok).toBe(false);
      await socket.close();
    } finally {
      await client.close();
    }
  });
});
