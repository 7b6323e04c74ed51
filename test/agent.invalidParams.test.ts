// Issue 9 item 14: every malformed parameter of every method is the caller's error (-32602 on
// JSON-RPC, 400 on HTTP+JSON), never an internal error (-32603/500); a body that is not UTF-8 is a
// parse error (-32700 / 400), never silently decoded with U+FFFD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent, spawnAgent } from './support/agentFixture.ts';
import { bestProbe } from './support/rawHttp.ts';
import { rpc, scriptData, userMessage } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
let taskId: string;
beforeAll(async () => {
  agent = await inProcessAgent();
  const sent = await rpc(agent.url, '1.0', 'SendMessage', {
    message: userMessage('1.0', {
      data: scriptData([{ prompt: { text: 'Q?', response_schema: { type: 'object' } } }]),
    }),
  });
  taskId = sent.body.result.task.id;
});
afterAll(async () => agent.cleanup());

const HUGE = '99999999999999999999999';

/** [label, method, params] that must each be refused with -32602. */
const BAD_V1: Array<[string, string, () => unknown]> = [
  ['ListTasks pageToken of 23 digits', 'ListTasks', () => ({ pageToken: HUGE })],
  ['ListTasks pageToken negative', 'ListTasks', () => ({ pageToken: '-1' })],
  ['ListTasks pageToken a number', 'ListTasks', () => ({ pageToken: 2 })],
  ['ListTasks pageToken not digits', 'ListTasks', () => ({ pageToken: 'abc' })],
  ['ListTasks pageSize negative', 'ListTasks', () => ({ pageSize: -5 })],
  ['ListTasks pageSize fractional', 'ListTasks', () => ({ pageSize: 1.5 })],
  ['ListTasks pageSize 2^64', 'ListTasks', () => ({ pageSize: 2 ** 64 })],
  ['ListTasks pageSize a word', 'ListTasks', () => ({ pageSize: 'ten' })],
  ['ListTasks pageSize beyond int32', 'ListTasks', () => ({ pageSize: 2 ** 31 })],
  ['ListTasks historyLength negative', 'ListTasks', () => ({ historyLength: -1 })],
  ['ListTasks historyLength a string', 'ListTasks', () => ({ historyLength: 'all' })],
  ['ListTasks status unknown', 'ListTasks', () => ({ status: 'TASK_STATE_BOGUS' })],
  ['ListTasks status a number', 'ListTasks', () => ({ status: 3 })],
  ['ListTasks contextId an object', 'ListTasks', () => ({ contextId: { a: 1 } })],
  ['ListTasks includeArtifacts a string', 'ListTasks', () => ({ includeArtifacts: 'yes' })],
  ['ListTasks params an array', 'ListTasks', () => [1, 2]],
  ['GetTask historyLength negative', 'GetTask', () => ({ id: taskId, historyLength: -1 })],
  ['GetTask historyLength huge', 'GetTask', () => ({ id: taskId, historyLength: 1e23 })],
  ['GetTask historyLength fractional', 'GetTask', () => ({ id: taskId, historyLength: 0.5 })],
  ['GetTask id a number', 'GetTask', () => ({ id: 12 })],
  ['GetTask params a string', 'GetTask', () => 'x'],
  ['CancelTask id missing', 'CancelTask', () => ({})],
  ['SubscribeToTask id an array', 'SubscribeToTask', () => ({ id: ['a'] })],
  [
    'SendMessage configuration.historyLength negative',
    'SendMessage',
    () => ({ message: userMessage('1.0'), configuration: { historyLength: -3 } }),
  ],
  [
    'SendMessage configuration.historyLength huge',
    'SendMessage',
    () => ({ message: userMessage('1.0'), configuration: { historyLength: 1e300 } }),
  ],
  ['SendMessage configuration a string', 'SendMessage', () => ({ message: userMessage('1.0'), configuration: 'fast' })],
  ['SendMessage message missing', 'SendMessage', () => ({})],
];

describe('invalid params are -32602, never -32603 (issue 9 item 14)', () => {
  it.each(BAD_V1)('%s', async (_label, method, params) => {
    const reply = await rpc(agent.url, '1.0', method, params());
    expect(reply.body.error, JSON.stringify(reply.body)).toBeDefined();
    expect(reply.body.error.code, reply.body.error.message).toBe(-32602);
  });

  it('numbers JSON.stringify cannot write: 1e400 (Infinity to JSON.parse) as pageSize or historyLength', async () => {
    for (const params of ['{"pageSize":1e400}', '{"historyLength":1e400}', '{"pageSize":-1e400}']) {
      const res = await fetch(agent.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: `{"jsonrpc":"2.0","id":3,"method":"ListTasks","params":${params}}`,
      });
      expect((await res.json()).error?.code, params).toBe(-32602);
    }
  });

  it('the same on v0.3 names: tasks/get with a negative or huge historyLength', async () => {
    for (const historyLength of [-1, 1e23, 'x']) {
      const reply = await rpc(agent.url, '0.3', 'tasks/get', { id: taskId, historyLength });
      expect(reply.body.error.code, JSON.stringify(reply.body)).toBe(-32602);
    }
  });

  it(
    'valid edge values still work: pageSize 0 is the default, ' + 'above 100 is clamped, an issued token pages',
    async () => {
      const list = async (params: unknown) => (await rpc(agent.url, '1.0', 'ListTasks', params)).body;
      expect((await list({ pageSize: 0 })).result.pageSize).toBe(50);
      expect((await list({ pageSize: 1_000 })).result.pageSize).toBe(100);
      expect((await list({ pageToken: '999999999999999' })).result.tasks).toEqual([]);
      expect(
        (await list({ pageToken: '', status: 'TASK_STATE_INPUT_REQUIRED', historyLength: 0 })).result.tasks[0].history,
      ).toEqual([]);
      expect((await rpc(agent.url, '1.0', 'GetTask', { id: taskId, historyLength: 2 ** 31 - 1 })).body.result.id).toBe(
        taskId,
      );
      // ProtoJSON accepts int32 as a decimal string.
      expect((await list({ pageSize: '7' })).result.pageSize).toBe(7);
      expect(
        (await rpc(agent.url, '1.0', 'GetTask', { id: taskId, historyLength: '1' })).body.result.history,
      ).toHaveLength(1);
    },
  );

  it.each([
    [`/tasks?pageToken=${HUGE}`],
    ['/tasks?pageSize=-1'],
    ['/tasks?pageSize=abc'],
    ['/tasks?pageSize=0x10'],
    ['/tasks?historyLength=-1'],
    ['/tasks?historyLength=99999999999999999999'],
    ['/tasks?includeArtifacts=maybe'],
    ['/tasks?status=NOPE'],
    ['/tasks/TASK?historyLength=-2'],
    ['/tasks/TASK?historyLength=1.5'],
  ])('HTTP+JSON GET %s is 400 INVALID_ARGUMENT (AIP-193: error.code is the HTTP status)', async (path) => {
    const res = await fetch(agent.url + path.replace('TASK', taskId), { headers: { 'A2A-Version': '1.0' } });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  });
});

describe('a body that is not UTF-8 is refused (issue 9 item 14)', () => {
  // A valid JSON-RPC request with one stray 0xff byte inside a string.
  const text = `{"jsonrpc":"2.0","id":7,"method":"ListTasks","params":{"contextId":"ab\u0000"}}`;
  const bad = Buffer.from(text.replace('\u0000', 'X'));
  bad[bad.indexOf('X')] = 0xff;

  it('JSON-RPC: -32700 parse error, not a call with U+FFFD in it', async () => {
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: bad,
    });
    const body = await res.json();
    expect(body.error?.code, JSON.stringify(body)).toBe(-32700);
    expect(body.error.message).toContain('UTF-8');
  });

  it.each([
    ['an overlong encoding', [0xc0, 0xaf]],
    ['a lone surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe0, 0xa4]],
  ])('HTTP+JSON /message:send with %s: 400 INVALID_ARGUMENT', async (_label, bytes) => {
    const before = Buffer.from(`{"message":{"messageId":"u","role":"ROLE_USER","parts":[{"text":"`);
    const after = Buffer.from(`"}]}}`);
    const res = await fetch(`${agent.url}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', 'A2A-Extensions': HITL },
      body: Buffer.concat([before, Buffer.from(bytes), after]),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toContain('UTF-8');
  });

  it('valid multi-byte UTF-8 and a BOM-less body still pass', async () => {
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: Buffer.from(`{"jsonrpc":"2.0","id":8,"method":"ListTasks","params":{"contextId":"é→😀"}}`),
    });
    expect((await res.json()).result.totalSize).toBe(0);
  });
});

describe('under a stream of invalid requests', () => {
  it(
    'a spawned agent answers health probes within 100 ms (median) ' + 'while 8 clients send invalid calls back to back',
    async () => {
      // A separate process, so the probe measures the agent's event loop, not this test's.
      const child = await spawnAgent([]);
      let stop = false;
      const codes = new Set<number>();
      let sent = 0;
      const attacker = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const body =
            (n + i) % 2
              ? `{"jsonrpc":"2.0","id":${i},"method":"ListTasks","params":{"pageToken":"${HUGE}"}}`
              : Buffer.from([0x7b, 0xff, 0x7d]);
          const res = await fetch(child.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
            body,
          });
          codes.add(((await res.json()) as any).error?.code);
          sent++;
        }
      };
      try {
        const attackers = Array.from({ length: 8 }, (_, n) => attacker(n));
        const probes: number[] = [];
        for (let i = 0; i < 9; i++) {
          await new Promise((r) => setTimeout(r, 100));
          probes.push((await bestProbe(child.url, 1)).best);
        }
        stop = true;
        await Promise.all(attackers);
        const sorted = [...probes].sort((a, b) => a - b);
        const probeList = probes.map((t) => t.toFixed(1)).join(', ');
        process.stderr.write(`agentInvalidParams: ${sent} invalid calls; probes during them: ${probeList} ms\n`);
        expect(sorted[4], `probes: ${probeList}`).toBeLessThan(100);
        expect(codes).toEqual(new Set([-32602, -32700]));
        expect(child.child.exitCode).toBeNull();
      } finally {
        stop = true;
        child.child.kill('SIGKILL');
        await child.exited;
      }
    },
    20_000,
  );
});
