// S-2 and common sense against hostile input: schema size and depth bounds at emission, linear
// regexes, payload depth (a clear 422, never a stack overflow), body size (413), prototype keys,
// and a flood of concurrent answers to one prompt (exactly one accepted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { answerMessage, envelopeOf, rpc, replay, scriptData, userMessage } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

/** A response schema that serializes to exactly `bytes` bytes (padding a description). */
function schemaOfSize(bytes: number): Record<string, unknown> {
  const base = { type: 'object', description: '' };
  const pad = bytes - Buffer.byteLength(JSON.stringify(base));
  const schema = { type: 'object', description: 'x'.repeat(pad) };
  expect(Buffer.byteLength(JSON.stringify(schema))).toBe(bytes);
  return schema;
}

function nestedSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

/** The JSON text of a payload nested `levels` containers deep: {"tree":[[...]]}. Built as text
 * because JSON.stringify itself overflows the stack on the deepest ones. */
function nestedPayloadText(levels: number): string {
  if (levels === 1) return '{}';
  return `{"tree":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

async function answerRaw(taskId: string, promptId: string, payloadText: string) {
  // Built as text so the payload goes in verbatim, at any depth.
  const answerFor = `{"hitl_response_for":{"prompt_id":"${promptId}","payload":${payloadText}}}`;
  const message =
    `{"messageId":"deep","role":"ROLE_USER","taskId":"${taskId}",` + `"parts":[{"text":"a"}],"metadata":${answerFor}}`;
  const body = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":${message}}}`;
  const res = await fetch(agent.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', 'A2A-Extensions': HITL },
    body,
  });
  return { status: res.status, body: await res.json() };
}

async function startPrompt(schema: unknown) {
  const sent = await rpc(agent.url, '1.0', 'SendMessage', {
    message: userMessage('1.0', {
      data: scriptData([{ prompt: { text: 'Q?', response_schema: schema } }, { complete: {} }]),
    }),
  });
  expect(sent.status).toBe(200);
  return sent.body.result.task;
}

describe('response_schema bounds at emission (S-2)', () => {
  it('emits a schema of exactly 65,536 bytes', async () => {
    const task = await startPrompt(schemaOfSize(65_536));
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(Buffer.byteLength(JSON.stringify(envelopeOf(task).response_schema))).toBe(65_536);
  });

  it.each([65_537, 1_000_000])('never emits a schema of %i bytes: the task fails with the reason', async (bytes) => {
    const task = await startPrompt(schemaOfSize(bytes));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(envelopeOf(task)).toBeUndefined();
    expect(task.status.message.parts[0].text).toContain(
      `${bytes} bytes serialized; hitl-prompt/v1 S-2 allows at most 65536`,
    );
  });

  it('emits a schema nested 32 subschemas deep and refuses 33', async () => {
    expect((await startPrompt(nestedSchema(32))).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const refused = await startPrompt(nestedSchema(33));
    expect(refused.status.state).toBe('TASK_STATE_FAILED');
    expect(refused.status.message.parts[0].text).toContain('deeper than 32');
  });

  it('refuses a schema whose top level is not type object, and a pattern RE2 cannot run', async () => {
    expect((await startPrompt({ type: 'array' })).status.message.parts[0].text).toContain('"type": "object"');
    const lookahead = await startPrompt({ type: 'object', properties: { a: { type: 'string', pattern: '(?=a)a' } } });
    expect(lookahead.status.state).toBe('TASK_STATE_FAILED');
    expect(lookahead.status.message.parts[0].text).toContain('not a usable JSON Schema');
  });

  it('validates a catastrophic-backtracking pattern in linear time', async () => {
    const task = await startPrompt({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    const started = performance.now();
    const answer = await rpc(agent.url, '1.0', 'SendMessage', {
      message: answerMessage('1.0', task.id, envelopeOf(task).prompt_id, { s: `${'a'.repeat(100_000)}!` }),
    });
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(422);
    expect(answer.body.error.data.validation_errors[0]).toMatchObject({ path: '/s', keyword: 'pattern' });
    // A backtracking engine takes longer than the age of the universe here; RE2 takes milliseconds.
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe('payload depth', () => {
  const openSchema = { type: 'object', properties: { tree: {} } };

  it.each([1, 31, 32])('accepts a payload nested %i levels', async (levels) => {
    const task = await startPrompt(openSchema);
    const answer = await answerRaw(task.id, envelopeOf(task).prompt_id, nestedPayloadText(levels));
    expect(answer.status).toBe(200);
    expect(answer.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it.each([33, 1_000, 100_000])(
    'refuses a payload nested %i levels with a clear 422, and the agent still answers',
    async (levels) => {
      const task = await startPrompt(openSchema);
      const started = performance.now();
      const answer = await answerRaw(task.id, envelopeOf(task).prompt_id, nestedPayloadText(levels));
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe(-32011);
      expect(answer.body.error.data.validation_errors).toEqual([
        { path: '', keyword: 'maxDepth', message: 'must NOT nest deeper than 32 levels' },
      ]);
      const probe = await rpc(agent.url, '1.0', 'GetTask', { id: task.id });
      expect(probe.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    },
  );

  it('refuses a deeply nested first message that is not an answer with invalid params', async () => {
    const answer = await rpc(agent.url, '1.0', 'SendMessage', {
      message: userMessage('1.0', { data: JSON.parse(nestedPayloadText(200)) }),
    });
    expect(answer.body.error.code).toBe(-32602);
    expect(answer.body.error.message).toContain('deeper than 128');
  });
});

describe('request bounds', () => {
  it('answers 413 beyond 1 MiB without reading the rest', async () => {
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1_048_577),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toContain('1048576');
  });

  it('refuses __proto__ and constructor.prototype keys, and pollutes nothing', async () => {
    for (const body of [
      '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"__proto__":{"polluted":1}}}}',
      '{"jsonrpc":"2.0","id":2,"method":"message/send","params":{"constructor":{"prototype":{"polluted":1}}}}',
    ]) {
      const res = await fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const json = await res.json();
      expect(json.error.code).toBe(-32700);
      expect(json.error.message).toContain('__proto__');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parse errors, batches and non-2.0 requests get JSON-RPC errors', async () => {
    const post = (body: string) =>
      fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.json());
    expect((await post('{nope')).error.code).toBe(-32700);
    expect((await post('[]')).error.code).toBe(-32600);
    expect((await post('{"id":1,"method":"message/send"}')).error.code).toBe(-32600);
  });
});

describe('duplicate answers under concurrency', () => {
  it('accepts exactly one of 200 concurrent valid answers; the rest are 409; one transition', async () => {
    const task = await startPrompt({ type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } });
    const promptId = envelopeOf(task).prompt_id;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        rpc(agent.url, '1.0', 'SendMessage', {
          message: answerMessage('1.0', task.id, promptId, { ok: true }),
          configuration: { returnImmediately: true },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(199);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === -32010)).toBe(true);
    const { frames } = await replay(agent.url, task.id, 0, { version: '1.0' });
    const afterPrompt = frames.slice(3).filter((f) => f.event.statusUpdate?.status.state === 'TASK_STATE_WORKING');
    expect(afterPrompt).toHaveLength(1);
    expect(frames.at(-1)!.event.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(HITL).toBeTruthy();
  });
});
