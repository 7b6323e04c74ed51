// A tiny agent of the acceptance-criteria extension, for tests of the rig's client side, in either
// wire generation (0.3: `message/send`, `kind`, lower-case states, `X-A2A-Extensions`; 1.0:
// `SendMessage`, `{task}` results, ProtoJSON with its defaults left out, `A2A-Extensions`). It
// answers as the project's design says: a creating send that activates the extension parks the
// task at once (artifact first, then INPUT_REQUIRED with the pending flag); criteria with an
// unknown evaluator or a negative number are -32040; a decision from neither the creator nor a
// named decider is -32043, a malformed one -32044, one for a task not pending -32042; accept
// completes; reject with retry answers WORKING and parks again right after (deterministic: the
// next read shows it pending), past maxRejections or with retry:false it fails. Knobs make it
// misbehave in the ways the client must notice.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  ACCEPTANCE_URI,
  CRITERIA_KEY,
  DECIDERS_KEY,
  DECISION_KEY,
  EVALUATORS,
  REJECTION_REASONS,
} from '../../rig/protocol/acceptance.ts';
import { acceptanceWire, RpcFailure, type AcceptanceWireOptions, type FakeTask } from './fakeAcceptanceWire.ts';

export interface FakeAcceptanceOptions extends AcceptanceWireOptions {
  /** Echo ACCEPTANCE_URI when a request activates it (default true). */
  echo?: boolean;
  /**
   * An accept is answered WORKING and the task completes only this long after (an agent that
   * settles asynchronously).
   */
  completeAfterMs?: number;
}

export interface RecordedRequest {
  method: string;
  extensions: string | undefined;
  authorization: string | undefined;
  params: Record<string, any>;
}

export interface FakeAcceptanceAgent {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}
function principal(authorization: string | undefined): string {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  return token === undefined ? 'anonymous' : createHash('sha256').update(token).digest('hex');
}
export async function startFakeAcceptanceAgent(options: FakeAcceptanceOptions): Promise<FakeAcceptanceAgent> {
  const v1 = options.generation === '1.0';
  const tasks = new Map<string, FakeTask>();
  const requests: RecordedRequest[] = [];
  const extHeader = v1 ? 'a2a-extensions' : 'x-a2a-extensions';
  let url = '';
  const { taskJson, card, errorData } = acceptanceWire(options, () => url);

  const create = (message: Record<string, any>, activated: boolean, authorization: string | undefined): FakeTask => {
    const criteria = activated ? message.metadata?.[CRITERIA_KEY] : undefined;
    if (criteria !== undefined) {
      if (criteria.evaluator !== undefined && !(EVALUATORS as readonly unknown[]).includes(criteria.evaluator))
        throw new RpcFailure(-32040, 'acceptance_criteria_invalid', `unknown evaluator ${criteria.evaluator}`);
      if (typeof criteria.maxRejections === 'number' && criteria.maxRejections < 0)
        throw new RpcFailure(-32040, 'acceptance_criteria_invalid', 'maxRejections is negative');
    }
    const deciders = Array.isArray(message.metadata?.[DECIDERS_KEY]) ? message.metadata[DECIDERS_KEY] : [];
    const t: FakeTask = {
      id: randomUUID(),
      contextId: message.contextId ?? randomUUID(),
      state: activated ? 'input-required' : 'completed',
      gated: activated,
      creator: principal(authorization),
      deciders,
      maxRejections: criteria?.maxRejections ?? 3,
      rejections: 0,
      history: [message],
    };
    tasks.set(t.id, t);
    return t;
  };

  /** A decision; returns the state the reply shows (a retry answers WORKING, then parks again). */
  const decide = (t: FakeTask, message: Record<string, any>, authorization: string | undefined): FakeTask['state'] => {
    const decision = message.metadata[DECISION_KEY];
    if (!(t.gated && t.state === 'input-required'))
      throw new RpcFailure(-32042, 'acceptance_decision_conflict', `task is ${t.state}, not pending acceptance`);
    const who = principal(authorization);
    if (who !== t.creator && !t.deciders.includes(who))
      throw new RpcFailure(-32043, 'acceptance_decision_unauthorized', 'not the creator nor a named decider');
    const valid =
      decision?.action === 'accept' ||
      (decision?.action === 'reject' && (REJECTION_REASONS as readonly unknown[]).includes(decision.reason));
    if (!valid)
      throw new RpcFailure(
        -32044,
        'acceptance_decision_invalid',
        'action must be accept, or reject with a reason from the enum',
      );
    t.history.push(message);
    if (decision.action === 'accept') {
      if (options.completeAfterMs === undefined) return (t.state = 'completed');
      t.state = 'working';
      setTimeout(() => (t.state = 'completed'), options.completeAfterMs).unref();
      return 'working';
    }
    t.rejections += 1;
    if (decision.retry === false || t.rejections > t.maxRejections) return (t.state = 'failed');
    return 'working'; // the new attempt "runs" between the reply and the next read
  };

  /** Whether the request activates the extension; echoes it (unless told not to) when it does. */
  const activate = (req: IncomingMessage, res: ServerResponse): boolean => {
    const activated = String(req.headers[extHeader] ?? '')
      .split(',')
      .map((s) => s.trim())
      .includes(ACCEPTANCE_URI);
    if (activated && (options.echo ?? true)) res.setHeader(extHeader, ACCEPTANCE_URI);
    return activated;
  };

  const handle = (method: string, params: Record<string, any>, req: IncomingMessage, res: ServerResponse): unknown => {
    const activated = activate(req, res);
    const authorization = req.headers.authorization;
    if (method === (v1 ? 'GetTask' : 'tasks/get')) {
      const t = tasks.get(params.id);
      if (!t) throw new RpcFailure(-32001, 'Task not found', 'no such task');
      return taskJson(t);
    }
    if (method !== (v1 ? 'SendMessage' : 'message/send')) throw new RpcFailure(-32601, 'Method not found', method);
    const message = params.message;
    const existing = message.taskId ? tasks.get(message.taskId) : undefined;
    if (message.taskId && !existing) throw new RpcFailure(-32001, 'Task not found', 'no such task');
    let t: FakeTask;
    let state: FakeTask['state'];
    if (existing && activated && message.metadata?.[DECISION_KEY] !== undefined) {
      t = existing;
      state = decide(t, message, authorization);
    } else {
      t = existing ?? create(message, activated, authorization);
      state = t.state;
    }
    const body = taskJson(t, state);
    return v1 ? { task: body } : body;
  };

  /** A creating stream: the artifact, then the status (pending when gated), then the end. */
  const stream = (
    rpc: { id: number; params: Record<string, any> },
    req: IncomingMessage,
    res: ServerResponse,
  ): void => {
    const activated = activate(req, res);
    const t = create(rpc.params.message, activated, req.headers.authorization);
    const task = taskJson(t) as Record<string, any>;
    const ids = { taskId: t.id, contextId: t.contextId };
    const artifact = task.artifacts?.[0];
    const events = [
      ...(artifact
        ? [v1 ? { artifactUpdate: { ...ids, artifact } } : { kind: 'artifact-update', ...ids, artifact }]
        : []),
      v1
        ? { statusUpdate: { ...ids, status: task.status } }
        : { kind: 'status-update', ...ids, status: task.status, final: true },
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(events.map((result) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result })}\n\n`).join(''));
  };

  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card()));
      return;
    }
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const rpc = JSON.parse(raw);
      requests.push({
        method: rpc.method,
        extensions: req.headers[extHeader] as string | undefined,
        authorization: req.headers.authorization,
        params: rpc.params,
      });
      let body: unknown;
      try {
        if (rpc.method === (v1 ? 'SendStreamingMessage' : 'message/stream')) return stream(rpc, req, res);
        body = { jsonrpc: '2.0', id: rpc.id, result: handle(rpc.method, rpc.params, req, res) };
      } catch (err) {
        if (!(err instanceof RpcFailure)) throw err;
        const data = errorData(err);
        body = {
          jsonrpc: '2.0',
          id: rpc.id,
          error: { code: err.code, message: err.message, ...(data ? { data } : {}) },
        };
      }
      // On JSON-RPC every A2A error travels with HTTP 200 (the design's choice for these too).
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
