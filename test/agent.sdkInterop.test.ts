// Interop: the official A2A JS SDK (@a2a-js/sdk 1.3.0) drives the reference agent through a full
// hitl-prompt/v1 round trip. The SDK is built from the agent card URL (ClientFactory.createFromUrl)
// and hitl-prompt/v1 is activated through its per-call RequestOptions: `serviceParameters` built
// with the SDK's own `withA2AExtensions` helper, which the client puts on the wire as the
// `A2A-Extensions` header (`X-A2A-Extensions` on its v0.3 transport). The transports' documented
// `fetchImpl` option is used only to watch the wire (headers and HTTP status), never to add anything.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Message, SendMessageRequest, TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
  type RequestOptions,
} from '@a2a-js/sdk/client';
import { isJsonRpcError, isRestError } from '@a2a-js/sdk/errors';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';

interface WireCall {
  requestHeaders: Headers;
  status: number;
  responseHeaders: Headers;
}

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

/** Per-call options: hitl-prompt/v1 activated, and a bound so a misbehaving agent fails fast. */
function activated(): RequestOptions {
  return { serviceParameters: ServiceParameters.create(withA2AExtensions(HITL)), signal: AbortSignal.timeout(10_000) };
}

/** A fetch that records what crossed the wire and changes nothing. */
function watchedFetch(calls: WireCall[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    calls.push({ requestHeaders: new Headers(init?.headers), status: res.status, responseHeaders: res.headers });
    return res;
  };
}

type Binding = 'JSONRPC' | 'HTTP+JSON' | 'JSONRPC v0.3';

async function sdkClient(binding: Binding, calls: WireCall[]): Promise<Client> {
  const fetchImpl = watchedFetch(calls);
  if (binding === 'JSONRPC v0.3') {
    // Our card offers JSON-RPC in 1.0 and 0.3 and the SDK picks 1.0; keeping only the 0.3 interface
    // makes it use its v0.3 compat transport (v0.3 method names, X-A2A-Extensions).
    const card = await new DefaultAgentCardResolver().resolve(agent.url);
    const legacy = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3'),
    };
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    });
    return factory.createFromAgentCard(legacy);
  }
  const transports =
    binding === 'JSONRPC' ? [new JsonRpcTransportFactory({ fetchImpl })] : [new RestTransportFactory({ fetchImpl })];
  return new ClientFactory({ transports, preferredTransports: [binding] }).createFromUrl(agent.url);
}

function request(message: Record<string, unknown>): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', ...message } });
}

const ask = () => request({ parts: [{ text: 'please ask me' }] });

function answer(taskId: string, promptId: string, payload: unknown): SendMessageRequest {
  return request({
    taskId,
    parts: [{ text: 'my answer' }],
    metadata: { hitl_response_for: { prompt_id: promptId, payload } },
  });
}

function asTask(result: Task | Message): Task {
  expect('status' in result, 'send result is a Task').toBe(true);
  return result as Task;
}

const envelopeOf = (task: Task | undefined) => task?.status?.message?.metadata?.[HITL];

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function statesOf(events: StreamResponse[]): Array<string | TaskState | undefined> {
  return events.map((e) => {
    const p = e.payload;
    if (p?.$case === 'task') return p.value.status?.state;
    if (p?.$case === 'statusUpdate') return p.value.status?.state;
    return p?.$case;
  });
}

/** Runs `send` expecting the SDK to throw, and returns what it threw. */
async function thrownBy(send: () => Promise<unknown>): Promise<unknown> {
  try {
    await send();
  } catch (err) {
    return err;
  }
  throw new Error('the SDK did not surface the refusal as an error');
}

function expectRefusal(err: unknown, binding: Binding, code: number, message: string, status: number): void {
  expect((err as Error).message).toBe(message);
  if (binding === 'HTTP+JSON') {
    expect(isRestError(err)).toBe(true);
    if (isRestError(err)) expect(err.statusCode).toBe(status);
  } else {
    expect(isJsonRpcError(err)).toBe(true);
    if (isJsonRpcError(err)) expect(err.envelopeCode).toBe(code);
  }
}

describe.each<Binding>(['JSONRPC', 'HTTP+JSON', 'JSONRPC v0.3'])('official @a2a-js/sdk client over %s', (binding) => {
  const extensionHeader = binding === 'JSONRPC v0.3' ? 'x-a2a-extensions' : 'a2a-extensions';

  it('blocking: prompt with envelope → 422 → answer → completed; a duplicate answer is a 409 error', async () => {
    const calls: WireCall[] = [];
    const client = await sdkClient(binding, calls);

    const parked = asTask(await client.sendMessage(ask(), activated()));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const envelope = envelopeOf(parked);
    expect(envelope.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(envelope.response_schema.required).toEqual(['approved']);
    // Activated by the request options: sent by the SDK and echoed by the agent.
    expect(calls[0].requestHeaders.get(extensionHeader)).toBe(HITL);
    expect(calls[0].responseHeaders.get(extensionHeader)).toBe(HITL);

    const invalid = await thrownBy(() =>
      client.sendMessage(answer(parked.id, envelope.prompt_id, { approved: 'yes' }), activated()),
    );
    expectRefusal(invalid, binding, -32011, 'hitl_response_invalid', 422);
    expect(calls.at(-1)!.status).toBe(422);

    const done = asTask(
      await client.sendMessage(answer(parked.id, envelope.prompt_id, { approved: true }), activated()),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(done.artifacts)).toContain('{\\"approved\\":true}');

    const duplicate = await thrownBy(() =>
      client.sendMessage(answer(parked.id, envelope.prompt_id, { approved: false }), activated()),
    );
    expectRefusal(duplicate, binding, -32010, 'hitl_already_answered_or_unknown', 409);
    expect(calls.at(-1)!.status).toBe(409);

    const fetched = await client.getTask({ tenant: '', id: parked.id }, activated());
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('streaming: sendMessageStream parks with the envelope, a streamed answer runs to completed', async () => {
    const calls: WireCall[] = [];
    const client = await sdkClient(binding, calls);

    const asked = await collect(client.sendMessageStream(ask(), activated()));
    expect(statesOf(asked)).toEqual([
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_INPUT_REQUIRED,
    ]);
    const last = asked.at(-1)!.payload;
    expect(last?.$case).toBe('statusUpdate');
    const envelope = last?.$case === 'statusUpdate' ? last.value.status?.message?.metadata?.[HITL] : undefined;
    expect(envelope?.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    const taskId = last?.$case === 'statusUpdate' ? last.value.taskId : '';
    // The echo is owed on streaming responses too (the SDK's own server omits it: a2a-js #710).
    expect(calls[0].responseHeaders.get('content-type')).toContain('text/event-stream');
    expect(calls[0].responseHeaders.get(extensionHeader)).toBe(HITL);

    const answered = await collect(
      client.sendMessageStream(answer(taskId, envelope.prompt_id, { approved: true }), activated()),
    );
    expect(statesOf(answered)).toEqual([
      TaskState.TASK_STATE_WORKING,
      'artifactUpdate',
      TaskState.TASK_STATE_COMPLETED,
    ]);

    const duplicate = await thrownBy(() =>
      collect(client.sendMessageStream(answer(taskId, envelope.prompt_id, { approved: true }), activated())),
    );
    expectRefusal(duplicate, binding, -32010, 'hitl_already_answered_or_unknown', 409);
  });

  it('without the extension in the request options, the agent emits no envelope', async () => {
    const calls: WireCall[] = [];
    const client = await sdkClient(binding, calls);
    const parked = asTask(await client.sendMessage(ask(), { signal: AbortSignal.timeout(10_000) }));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(envelopeOf(parked)).toBeUndefined();
    expect(calls[0].requestHeaders.get(extensionHeader)).toBeNull();
    expect(calls[0].responseHeaders.get(extensionHeader)).toBeNull();
  });
});
