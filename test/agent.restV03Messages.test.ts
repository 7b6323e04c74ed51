// The A2A 0.3 HTTP+JSON binding under /v1/, its message endpoints: requests shaped as the 0.3 TCK's
// REST client sends them (ProtoJSON of the 0.3 proto, proto field names), and the answers they must
// get, including SSE streams, the error bodies, the guards shared with the other bindings and hitl-prompt/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { restV03Client, tckMessage, uniqueId } from './support/restV03Client.ts';
import { readSse } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());
const { post } = restV03Client(() => agent.url);

describe('POST /v1/message:send', () => {
  it(
    'answers a SendMessageResponse {task} in 0.3 ProtoJSON (content parts, ' + 'ROLE_ names, TASK_STATE_ names)',
    async () => {
      const res = await post('/v1/message:send', {
        message: tckMessage({ context_id: 'ctx-rest03' }),
        configuration: { accepted_output_modes: ['text/plain'], history_length: 1 },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = await res.json();
      expect(Object.keys(body)).toEqual(['task']);
      expect(body.task).toMatchObject({
        id: expect.any(String),
        contextId: 'ctx-rest03',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { role: 'ROLE_AGENT', content: [{ text: 'Approve?' }] },
          timestamp: expect.any(String),
        },
        artifacts: [],
      });
      expect(body.task.history).toHaveLength(1);
      expect(body.task.kind).toBeUndefined();
    },
  );

  it('keeps file and data parts in 0.3 form through the task history', async () => {
    const content = [
      { text: 'look' },
      { file: { file_with_uri: 'https://example.com/a.txt', mime_type: 'text/plain' } },
      { data: { data: { k: 1 } } },
    ];
    const task = (await (await post('/v1/message:send', { message: tckMessage({}, content) })).json()).task;
    const got = await (await fetch(`${agent.url}/v1/tasks/${task.id}`)).json();
    expect(got.history[0].content).toEqual([
      { text: 'look' },
      { file: { fileWithUri: 'https://example.com/a.txt', mimeType: 'text/plain' } },
      { data: { data: { k: 1 } } },
    ]);
  });

  it(
    'answers a message-only exchange (tck-message-response) ' +
      'with {message}, and on a stream with one {message} frame',
    async () => {
      const res = await post('/v1/message:send', {
        message: tckMessage({ message_id: uniqueId('tck-message-response') }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        message: {
          messageId: expect.any(String),
          contextId: expect.any(String),
          role: 'ROLE_AGENT',
          content: [{ text: expect.any(String) }],
        },
      });
      const stream = await post(
        '/v1/message:stream',
        { message: tckMessage({ message_id: uniqueId('tck-message-response') }) },
        { accept: 'text/event-stream' },
      );
      const events = await readSse(stream);
      expect(events).toEqual([
        { message: expect.objectContaining({ role: 'ROLE_AGENT', content: [{ text: expect.any(String) }] }) },
      ]);
    },
  );

  it('writes artifacts with 0.3 file parts (tck-artifact-file-url)', async () => {
    const res = await post('/v1/message:send', {
      message: tckMessage({ message_id: uniqueId('tck-artifact-file-url') }),
    });
    const { task } = await res.json();
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0]).toMatchObject({
      artifactId: expect.any(String),
      parts: [{ file: { fileWithUri: 'https://example.com/output.txt' } }],
    });
  });

  it.each([
    ['no messageId (the TCK invalid-params case)', { message: {} }, 'message.messageId is required'],
    ['empty content', { message: tckMessage({}, []) }, 'message.content must list at least one part'],
    [
      'a 0.3 JSON-RPC part with kind',
      { message: tckMessage({}, [{ kind: 'text', text: 'x' }]) },
      'message.content[0].kind is not a field',
    ],
    [
      'a part of no known shape',
      { message: tckMessage({}, [{ video: {} }]) },
      'message.content[0].video is not a field',
    ],
    [
      'role in 0.3 JSON-RPC spelling',
      { message: { ...tckMessage(), role: 'user' } },
      'message.role must be ROLE_USER or ROLE_AGENT',
    ],
    [
      'a negative history_length',
      { message: tckMessage(), configuration: { history_length: -1 } },
      'configuration.historyLength must be an integer',
    ],
  ])('refuses %s with 400 InvalidParamsError', async (_name, body, reason) => {
    const res = await post('/v1/message:send', body);
    expect(res.status).toBe(400);
    const error = await res.json();
    expect(error).toMatchObject({ error: 'InvalidParamsError', code: -32602 });
    expect(error.message).toContain(reason);
  });

  it('refuses a body that is not JSON with 400 JSONParseError', async () => {
    const res = await post('/v1/message:send', '{"message":');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'JSONParseError', code: -32700 });
  });
});

describe('POST /v1/message:stream', () => {
  it('streams StreamResponse frames over SSE: the task, then status updates, the settling one final', async () => {
    const res = await post('/v1/message:stream', { message: tckMessage() }, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    expect(Object.keys(events[0])).toEqual(['task']);
    const last = events.at(-1);
    expect(last.statusUpdate).toMatchObject({
      taskId: events[0].task.id,
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
      final: true,
    });
    for (const event of events) expect(Object.keys(event)).toHaveLength(1);
  });

  it('refuses an invalid message before the stream starts, with an HTTP error', async () => {
    const res = await post('/v1/message:stream', { message: tckMessage({}, []) }, { accept: 'text/event-stream' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'InvalidParamsError', code: -32602 });
  });
});

describe('guards shared with the other bindings', () => {
  it('refuses a request nested deeper than the whole-request bound with 400, before walking it', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const res = await post('/v1/message:send', { message: tckMessage({ metadata: deep }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'InvalidParamsError',
      code: -32602,
      message: expect.stringContaining('nests deeper'),
    });
  });

  it('refuses a body over the size bound with 413', async () => {
    const res = await post('/v1/message:send', { message: tckMessage({}, [{ text: 'x'.repeat(1_100_000) }]) });
    expect(res.status).toBe(413);
  });
});

describe('hitl-prompt/v1 over 0.3 HTTP+JSON', () => {
  const headers = { 'X-A2A-Extensions': HITL };
  it("echoes the activation; 422 and 409 keep the contract's code, message and data", async () => {
    const sent = await post('/v1/message:send', { message: tckMessage() }, headers);
    expect(sent.headers.get('x-a2a-extensions')).toBe(HITL);
    const { task } = await sent.json();
    const promptId = task.status.message.metadata[HITL].prompt_id;
    const answer = (payload: unknown) =>
      post(
        '/v1/message:send',
        {
          message: tckMessage({
            task_id: task.id,
            context_id: task.contextId,
            metadata: { hitl_response_for: { prompt_id: promptId, payload } },
          }),
        },
        headers,
      );
    const invalid = await answer({});
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({
      error: 'HitlResponseInvalidError',
      code: -32011,
      message: 'hitl_response_invalid',
      data: {
        extension: HITL,
        prompt_id: promptId,
        validation_errors: [
          { path: '/approved', keyword: 'required', message: "must have required property 'approved'" },
        ],
      },
    });
    const ok = await answer({ approved: true });
    expect(ok.status).toBe(200);
    expect((await ok.json()).task.status.state).toBe('TASK_STATE_COMPLETED');
    const dup = await answer({ approved: true });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({
      code: -32010,
      message: 'hitl_already_answered_or_unknown',
      data: { prompt_id: promptId },
    });
  });
});
