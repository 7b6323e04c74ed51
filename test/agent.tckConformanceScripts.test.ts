// The A2A TCK's messageId conventions (1.0-dev scenarios/core_operations.feature and
// scenarios/streaming.feature; 0.3.x docs/SUT_REQUIREMENTS.md), and the multi-turn follow-ups
// both TCKs send to a task in INPUT_REQUIRED.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tckStreamingTimeoutMs } from '../rig/agent/script.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { METHOD, rpc, rpcStream, stateOf, taskOf, type Gen } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

let n = 0;
function tckMessage(gen: Gen, prefix: string, extra: Record<string, unknown> = {}) {
  return {
    messageId: `${prefix}-${n++}`,
    role: gen === '1.0' ? 'ROLE_USER' : 'user',
    parts: [gen === '1.0' ? { text: 'TCK' } : { kind: 'text', text: 'TCK' }],
    ...extra,
  };
}
async function send(gen: Gen, prefix: string, extra: Record<string, unknown> = {}) {
  const reply = await rpc(agent.url, gen, METHOD[gen].send, { message: tckMessage(gen, prefix, extra) }, false);
  expect(reply.body.error).toBeUndefined();
  return reply.body.result;
}
/** Stream results in canonical terms: [kind, payload] with the 1.0 member names. */
async function streamed(gen: Gen, prefix: string): Promise<Array<[string, any]>> {
  const { events } = await rpcStream(agent.url, gen, METHOD[gen].stream, { message: tckMessage(gen, prefix) }, false);
  const kinds: Record<string, string> = {
    task: 'task',
    'status-update': 'statusUpdate',
    'artifact-update': 'artifactUpdate',
    message: 'message',
  };
  return events.map((e) =>
    gen === '1.0' ? (Object.entries(e.result)[0] as [string, any]) : [kinds[e.result.kind], e.result],
  );
}

describe.each<Gen>(['0.3', '1.0'])('TCK core scenarios (%s)', (gen) => {
  it('tck-message-response returns a Message with "Direct message response"', async () => {
    const result = await send(gen, 'tck-message-response');
    const message = gen === '1.0' ? result.message : result;
    if (gen === '0.3') expect(message.kind).toBe('message');
    expect(message.parts).toHaveLength(1);
    expect(message.parts[0].text).toBe('Direct message response');
  });

  it('tck-complete-task completes with the message "Hello from TCK"', async () => {
    const task = taskOf(gen, await send(gen, 'tck-complete-task'));
    expect(stateOf(gen, task)).toBe('TASK_STATE_COMPLETED');
    expect(task.status.message.parts[0].text).toBe('Hello from TCK');
  });

  it('tck-artifact-file adds a file part output.txt of type text/plain', async () => {
    const task = taskOf(gen, await send(gen, 'tck-artifact-file'));
    expect(stateOf(gen, task)).toBe('TASK_STATE_COMPLETED');
    const part = task.artifacts[0].parts[0];
    if (gen === '1.0')
      expect(part).toEqual({
        raw: Buffer.from('tck').toString('base64'),
        filename: 'output.txt',
        mediaType: 'text/plain',
      });
    else
      expect(part).toEqual({
        kind: 'file',
        file: { bytes: Buffer.from('tck').toString('base64'), name: 'output.txt', mimeType: 'text/plain' },
      });
  });

  it('tck-artifact-file-url adds a URL part with filename and media type', async () => {
    const task = taskOf(gen, await send(gen, 'tck-artifact-file-url'));
    const part = task.artifacts[0].parts[0];
    if (gen === '1.0')
      expect(part).toEqual({ url: 'https://example.com/output.txt', filename: 'output.txt', mediaType: 'text/plain' });
    else
      expect(part).toEqual({
        kind: 'file',
        file: { uri: 'https://example.com/output.txt', name: 'output.txt', mimeType: 'text/plain' },
      });
  });

  it(
    'a tck-input-required follow-up puts the task back into INPUT_REQUIRED; ' + 'tck-complete-task completes it',
    async () => {
      const task = taskOf(gen, await send(gen, 'tck-input-required'));
      expect(stateOf(gen, task)).toBe('TASK_STATE_INPUT_REQUIRED');
      for (const text of ['TCK history message 1', 'TCK history message 2']) {
        const again = taskOf(
          gen,
          await send(gen, 'tck-input-required', {
            taskId: task.id,
            parts: [gen === '1.0' ? { text } : { kind: 'text', text }],
          }),
        );
        expect(stateOf(gen, again)).toBe('TASK_STATE_INPUT_REQUIRED');
      }
      const done = taskOf(gen, await send(gen, 'tck-complete-task', { taskId: task.id }));
      expect(stateOf(gen, done)).toBe('TASK_STATE_COMPLETED');
      const got = await rpc(agent.url, gen, METHOD[gen].get, { id: task.id }, false);
      const userTexts = got.body.result.history
        .filter((m: any) => m.role === (gen === '1.0' ? 'ROLE_USER' : 'user'))
        .map((m: any) => m.parts[0].text);
      expect(userTexts).toEqual(['TCK', 'TCK history message 1', 'TCK history message 2', 'TCK']);
    },
  );
});

describe.each<Gen>(['0.3', '1.0'])('TCK streaming scenarios (%s)', (gen) => {
  const statesOf = (events: Array<[string, any]>) =>
    events.filter(([k]) => k === 'statusUpdate').map(([, u]) => stateOf(gen, u));

  it('tck-stream-001: working, the artifact "Stream hello from TCK", completed', async () => {
    const events = await streamed(gen, 'tck-stream-001');
    expect(events.map(([k]) => k)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(statesOf(events)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(events[2][1].artifact.parts[0].text).toBe('Stream hello from TCK');
  });

  it('tck-stream-002 streams only a completed status', async () => {
    const events = await streamed(gen, 'tck-stream-002');
    expect(events.map(([k]) => k)).toEqual(['task', 'statusUpdate']);
    expect(statesOf(events)).toEqual(['TASK_STATE_COMPLETED']);
  });

  it('tck-stream-artifact-file streams a file part', async () => {
    const events = await streamed(gen, 'tck-stream-artifact-file');
    const part = events.find(([k]) => k === 'artifactUpdate')![1].artifact.parts[0];
    expect(gen === '1.0' ? part.filename : part.file.name).toBe('output.txt');
    expect(gen === '1.0' ? part.mediaType : part.file.mimeType).toBe('text/plain');
  });

  it('tck-stream-artifact-chunked: "chunk-1 " then a final "chunk-2" appended to the same artifact', async () => {
    const events = await streamed(gen, 'tck-stream-artifact-chunked');
    const chunks = events.filter(([k]) => k === 'artifactUpdate').map(([, u]) => u);
    expect(chunks.map((u) => u.artifact.parts[0].text)).toEqual(['chunk-1 ', 'chunk-2']);
    expect(chunks[1]).toMatchObject({ append: true, lastChunk: true });
    expect(chunks[0]).toMatchObject({ append: false, lastChunk: false });
    expect(chunks[1].artifact.artifactId).toBe(chunks[0].artifact.artifactId);
    expect(statesOf(events).at(-1)).toBe('TASK_STATE_COMPLETED');
  });
});

describe('test-resubscribe-message-id runs for twice TCK_STREAMING_TIMEOUT', () => {
  const saved = process.env.TCK_STREAMING_TIMEOUT;
  afterEach(() => {
    if (saved === undefined) delete process.env.TCK_STREAMING_TIMEOUT;
    else process.env.TCK_STREAMING_TIMEOUT = saved;
  });

  it('reads the TCK variable in seconds, 2 s by default, and refuses a bad value in one line', () => {
    expect(tckStreamingTimeoutMs({})).toBe(2000);
    expect(tckStreamingTimeoutMs({ TCK_STREAMING_TIMEOUT: '0.5' })).toBe(500);
    expect(() => tckStreamingTimeoutMs({ TCK_STREAMING_TIMEOUT: 'fast' })).toThrow(
      /^TCK_STREAMING_TIMEOUT must be a number of seconds/,
    );
    expect(() => tckStreamingTimeoutMs({ TCK_STREAMING_TIMEOUT: '0' })).toThrow(/TCK_STREAMING_TIMEOUT/);
  });

  it('working, then completed no sooner than 2 x the timeout', async () => {
    process.env.TCK_STREAMING_TIMEOUT = '0.2';
    const started = performance.now();
    const events = await streamed('0.3', 'test-resubscribe-message-id');
    const elapsed = performance.now() - started;
    const states = events.filter(([k]) => k === 'statusUpdate').map(([, u]) => stateOf('0.3', u));
    expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(elapsed).toBeGreaterThanOrEqual(400);
    // Not the fixed 4 s of before: the variable sets it (margin for a loaded box).
    expect(elapsed).toBeLessThan(3000);
  });
});

describe(
  'plain follow-ups that do not answer the prompt (0.3 test_task_history_length, ' + 'test_partial_update_recovery)',
  () => {
    it(
      'a default task takes three text follow-ups, ' + 'stays in input-required, and historyLength bounds GetTask',
      async () => {
        const created = await send('0.3', 'test-history-create-message-id');
        expect(stateOf('0.3', created)).toBe('TASK_STATE_INPUT_REQUIRED');
        for (let i = 1; i <= 3; i++) {
          const follow = await send('0.3', `test-history-message-${i}`, {
            taskId: created.id,
            parts: [{ kind: 'text', text: `Follow-up message ${i} for history test` }],
          });
          expect(stateOf('0.3', follow)).toBe('TASK_STATE_INPUT_REQUIRED');
        }
        const full = (await rpc(agent.url, '0.3', 'tasks/get', { id: created.id }, false)).body.result.history;
        const limited = (await rpc(agent.url, '0.3', 'tasks/get', { id: created.id, historyLength: 2 }, false)).body
          .result.history;
        expect(full.length).toBeGreaterThan(2);
        expect(limited).toHaveLength(2);
      },
    );

    it('an answer that satisfies the prompt still completes the task', async () => {
      const created = await send('0.3', 'plain');
      const done = await send('0.3', 'plain-answer', {
        taskId: created.id,
        parts: [{ kind: 'data', data: { approved: true } }],
      });
      expect(stateOf('0.3', done)).toBe('TASK_STATE_COMPLETED');
    });
  },
);
