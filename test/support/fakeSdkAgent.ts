// A tiny hitl-prompt/v1 agent that frames things the way the official Python a2a-sdk does, for tests
// of the rig's client side: its v1.0 card is ProtoJSON (defaults left out: the extension declared as
// `{uri, params: {}}`), and its subscription to a parked task can be refused inside an event stream
// (HTTP 200, text/event-stream, a JSON-RPC error as the only frame), as a2a-sdk 0.3.26 does for
// tasks/resubscribe. Every message without an answer opens a task parked in INPUT_REQUIRED asking
// `{approved: boolean}`; one valid answer completes it, a second is 409 / -32010, an invalid one
// 422 / -32011 (with validation_errors where the contract puts them, or inside a google.rpc
// ErrorInfo as an SDK-rendered error carries them).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HITL_PROMPT_URI, HITL_RESPONSE_KEY } from '../../rig/protocol/hitlPrompt.ts';
import { LiveStreams, type LiveShape, type LiveTask } from './fakeLiveStreams.ts';

export interface FakeAgentOptions {
  generation: '0.3' | '1.0';
  /**
   * How a subscription to a parked task is refused: as the first frame of a stream (now, or after
   * `lateMs`), or as plain JSON (now, or once `heldUntil` resolves: no headers before).
   */
  refuseSubscribe: 'in-stream' | 'json' | { lateMs: number } | { heldUntil: Promise<void> };
  /** Where a 422's validation_errors go: `error.data` as the contract says, or a google.rpc ErrorInfo list. */
  invalidData?: 'contract' | 'error-info';
  /** A new task is WORKING at first and parks in INPUT_REQUIRED only this long after the send. */
  parkAfterMs?: number;
  /** An accepted answer's reply still shows INPUT_REQUIRED; the task completes this long after. */
  resumeAfterMs?: number;
  /** The response_schema of every prompt (default `{approved: boolean}`); hostile ones test the rig's bounds. */
  responseSchema?: Record<string, unknown>;
  /** v1.0 only: subscriptions are served live in this shape (fakeLiveStreams.ts), not refused. */
  live?: LiveShape;
}

export interface FakeAgent {
  url: string;
  /** JSON-RPC methods called, in order. */
  calls: string[];
  close(): Promise<void>;
}

interface FakeTask {
  id: string;
  contextId: string;
  state: 'working' | 'input-required' | 'completed';
  promptId: string;
  answered: boolean;
}

const V1_STATE = {
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
} as const;

export async function startFakeSdkAgent(options: FakeAgentOptions): Promise<FakeAgent> {
  const tasks = new Map<string, FakeTask>();
  const calls: string[] = [];
  const v1 = options.generation === '1.0';
  if (options.live && !v1) throw new Error('live subscriptions are v1.0 only');
  const live = options.live && new LiveStreams(options.live);
  let url = '';

  const envelope = (t: FakeTask) => ({
    prompt_id: t.promptId,
    prompt: 'Approve?',
    response_schema: options.responseSchema ?? {
      type: 'object',
      additionalProperties: false,
      required: ['approved'],
      properties: { approved: { type: 'boolean' } },
    },
  });
  const taskJson = (t: FakeTask) => {
    const message =
      t.state === 'input-required'
        ? {
            messageId: `m-${t.id}`,
            role: v1 ? 'ROLE_AGENT' : 'agent',
            parts: [v1 ? { text: 'Approve?' } : { kind: 'text', text: 'Approve?' }],
            metadata: { [HITL_PROMPT_URI]: envelope(t) },
          }
        : undefined;
    // ProtoJSON (v1.0) leaves out empty history and artifacts; v0.3 writes them.
    return v1
      ? { id: t.id, contextId: t.contextId, status: { state: V1_STATE[t.state], ...(message ? { message } : {}) } }
      : {
          kind: 'task',
          id: t.id,
          contextId: t.contextId,
          status: { state: t.state, ...(message ? { message: { kind: 'message', ...message } } : {}) },
          history: [],
          artifacts: [],
        };
  };
  const card = () =>
    v1
      ? {
          name: 'fake-sdk-agent',
          description: 'frames like a2a-sdk',
          supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          version: '1.0.0',
          capabilities: { streaming: true, extensions: [{ uri: HITL_PROMPT_URI, params: {} }] },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'approve', name: 'approve', description: 'asks', tags: ['hitl'] }],
        }
      : {
          name: 'fake-sdk-agent',
          description: 'frames like a2a-sdk',
          url: `${url}/`,
          protocolVersion: '0.3.0',
          preferredTransport: 'JSONRPC',
          version: '1.0.0',
          capabilities: { streaming: true, extensions: [{ uri: HITL_PROMPT_URI, required: false, params: {} }] },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'approve', name: 'approve', description: 'asks', tags: ['hitl'] }],
        };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      [v1 ? 'a2a-extensions' : 'x-a2a-extensions']: HITL_PROMPT_URI,
    });
    res.end(JSON.stringify(body));
  };
  const rpcError = (res: ServerResponse, id: unknown, status: number, code: number, message: string, data?: unknown) =>
    json(res, status, { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } });

  function send(res: ServerResponse, id: unknown, params: Record<string, any>): void {
    const message = params.message ?? {};
    const response = message.metadata?.[HITL_RESPONSE_KEY];
    if (!message.taskId || response === undefined) {
      const t: FakeTask = {
        id: randomUUID(),
        contextId: message.contextId ?? randomUUID(),
        state: options.parkAfterMs ? 'working' : 'input-required',
        promptId: randomUUID(),
        answered: false,
      };
      tasks.set(t.id, t);
      if (options.parkAfterMs) setTimeout(() => (t.state = 'input-required'), options.parkAfterMs).unref();
      return json(res, 200, { jsonrpc: '2.0', id, result: v1 ? { task: taskJson(t) } : taskJson(t) });
    }
    const t = tasks.get(message.taskId);
    if (!t || t.answered || t.state !== 'input-required' || response.prompt_id !== t.promptId) {
      return rpcError(res, id, 409, -32010, 'hitl_already_answered_or_unknown', {
        extension: HITL_PROMPT_URI,
        prompt_id: response.prompt_id,
      });
    }
    const payload = response.payload;
    const errors = [];
    if (typeof payload?.approved !== 'boolean')
      errors.push({ path: '/approved', keyword: 'type', message: 'must be boolean' });
    for (const key of Object.keys(payload ?? {}))
      if (key !== 'approved')
        errors.push({
          path: `/${key}`,
          keyword: 'additionalProperties',
          message: 'must NOT have additional properties',
        });
    if (errors.length > 0) {
      const data =
        options.invalidData === 'error-info'
          ? [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'hitl_response_invalid',
                domain: 'a2a',
                metadata: {
                  extension: HITL_PROMPT_URI,
                  prompt_id: t.promptId,
                  validation_errors: JSON.stringify(errors),
                },
              },
            ]
          : { extension: HITL_PROMPT_URI, prompt_id: t.promptId, validation_errors: errors };
      return rpcError(res, id, 422, -32011, 'hitl_response_invalid', data);
    }
    t.answered = true;
    if (options.resumeAfterMs) {
      const reply = { jsonrpc: '2.0', id, result: v1 ? { task: taskJson(t) } : taskJson(t) };
      setTimeout(() => (t.state = 'completed'), options.resumeAfterMs).unref();
      return json(res, 200, reply);
    }
    t.state = 'completed';
    // WORKING is re-sent once as a snapshot (a view repeated, no new transition), then COMPLETED.
    live?.publish(liveTask(t), 'TASK_STATE_WORKING', 1);
    live?.publish(liveTask(t), 'TASK_STATE_COMPLETED');
    json(res, 200, { jsonrpc: '2.0', id, result: v1 ? { task: taskJson(t) } : taskJson(t) });
  }

  const liveTask = (t: FakeTask): LiveTask => ({ id: t.id, contextId: t.contextId, json: () => taskJson(t) });

  function subscribe(res: ServerResponse, id: unknown, params: Record<string, any>): void {
    const refusal = { jsonrpc: '2.0', id, error: { code: -32001, message: 'Task not found' } };
    const t = tasks.get(params.id);
    if (t && live) return live.open(res, id, liveTask(t));
    const refuse = options.refuseSubscribe;
    if (!t || refuse === 'json') return json(res, 200, refusal);
    if (typeof refuse === 'object' && 'heldUntil' in refuse)
      return void refuse.heldUntil.then(() => json(res, 200, refusal));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const frame = () => res.end(`data: ${JSON.stringify(refusal)}\n\n`);
    if (refuse === 'in-stream') frame();
    else {
      res.flushHeaders();
      setTimeout(frame, refuse.lateMs);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') return json(res, 200, card());
    if (req.method !== 'POST') return json(res, 404, {});
    let body = '';
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body) as { id: unknown; method: string; params: Record<string, any> };
    calls.push(rpc.method);
    switch (rpc.method) {
      case 'message/send':
      case 'SendMessage':
        return send(res, rpc.id, rpc.params);
      case 'tasks/get':
      case 'GetTask': {
        const t = tasks.get(rpc.params.id);
        if (!t) return rpcError(res, rpc.id, 200, -32001, 'Task not found');
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, result: taskJson(t) });
      }
      case 'tasks/resubscribe':
      case 'SubscribeToTask':
        return subscribe(res, rpc.id, rpc.params);
      default:
        return rpcError(res, rpc.id, 200, -32601, 'Method not found');
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
