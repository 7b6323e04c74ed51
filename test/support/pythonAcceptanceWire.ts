// The acceptance-criteria extension on the Python peers' wire, for both SDK generations: the
// extension's URIs, each SDK's method names, shapes and states, raw JSON-RPC and streaming calls,
// and the calls the peers' acceptance tests share (create a task with criteria, decide, read it
// back, restart the peer, wait for a state).
import { createHash, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { PeerSdk, PythonPeer } from './pythonPeers.ts';

// Written out here rather than imported from rig/protocol: the peers are an independent
// implementation, and so are their tests' expectations.
export const ACC = 'https://github.com/a2aproject/experimental-ext-acceptance/tree/main/v1';
export const CRITERIA = `${ACC}/criteria`;
export const PENDING = `${ACC}/pendingAcceptance`;
export const DECISION = `${ACC}/decision`;
export const HITL = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1';
export const sha = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Wire {
  send: string;
  stream: string;
  get: string;
  header: string;
  message(parts: unknown[], extra?: Record<string, unknown>): Record<string, unknown>;
  text(t: string): unknown;
  data(d: unknown): unknown;
  task(result: any): any;
  state: Record<'input' | 'completed' | 'failed', string>;
  /** A stream event as [kind, event]: 'task' | 'status' | 'artifact'. */
  event(result: any): [string, any];
  partData(part: any): unknown;
}
const WIRES: Record<PeerSdk, Wire> = {
  '1.3.0': {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    header: 'A2A-Extensions',
    message: (parts, extra) => ({ messageId: randomUUID(), role: 'ROLE_USER', parts, ...extra }),
    text: (text) => ({ text }),
    data: (data) => ({ data }),
    task: (result) => result.task,
    state: { input: 'TASK_STATE_INPUT_REQUIRED', completed: 'TASK_STATE_COMPLETED', failed: 'TASK_STATE_FAILED' },
    event: (r) =>
      r.task ? ['task', r.task] : r.statusUpdate ? ['status', r.statusUpdate] : ['artifact', r.artifactUpdate],
    partData: (p) => p.data,
  },
  '0.3.26': {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    header: 'X-A2A-Extensions',
    message: (parts, extra) => ({ kind: 'message', messageId: randomUUID(), role: 'user', parts, ...extra }),
    text: (text) => ({ kind: 'text', text }),
    data: (data) => ({ kind: 'data', data }),
    task: (result) => result,
    state: { input: 'input-required', completed: 'completed', failed: 'failed' },
    event: (r) => [r.kind === 'status-update' ? 'status' : r.kind === 'artifact-update' ? 'artifact' : 'task', r],
    partData: (p) => p.data,
  },
};

export async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A streaming send read to its end: the events in order, as [kind, event]. */
export async function streamEvents(url: string, w: Wire, params: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: w.stream, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => w.event(JSON.parse(l.slice(5)).result));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The calls of an SDK generation's acceptance tests, activating the extension unless told otherwise. */
export function acceptanceCalls(sdk: PeerSdk) {
  const w = WIRES[sdk];
  const activate = { [w.header]: ACC };
  /** Creates a task with these criteria (and script, metadata, headers); the raw reply. */
  const create = (
    p: PythonPeer,
    criteria: unknown,
    opts: { script?: unknown; meta?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) => {
    const parts = [w.text('produce the report'), ...(opts.script ? [w.data({ 'a2a-rig/script': opts.script })] : [])];
    const metadata = { ...(criteria === undefined ? {} : { [CRITERIA]: criteria }), ...opts.meta };
    return rpc(p.url, w.send, { message: w.message(parts, { metadata }) }, opts.headers ?? activate);
  };
  const created = async (p: PythonPeer, criteria: unknown, opts: Parameters<typeof create>[2] = {}) => {
    const r = await create(p, criteria, opts);
    expect(r.body.error, JSON.stringify(r.body.error)).toBeUndefined();
    return w.task(r.body.result);
  };
  const decide = (
    p: PythonPeer,
    task: any,
    decision: unknown,
    opts: { text?: string; headers?: Record<string, string> } = {},
  ) =>
    rpc(
      p.url,
      w.send,
      {
        message: w.message([w.text(opts.text ?? 'decision')], {
          taskId: task.id,
          contextId: task.contextId,
          metadata: { [DECISION]: decision },
        }),
      },
      opts.headers ?? activate,
    );
  const getTask = async (p: PythonPeer, id: string) => (await rpc(p.url, w.get, { id })).body.result;
  const isPending = (t: any) => t.status.state === w.state.input && t.status.message?.metadata?.[PENDING] === true;
  const restart = async (p: PythonPeer) => {
    await promisify(execFile)('sh', ['-c', p.restartCmd], { timeout: 10_000 });
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(new URL('/.well-known/agent-card.json', p.url)).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await sleep(50);
    }
  };
  const waitState = async (p: PythonPeer, id: string, state: string, ms: number) => {
    const end = Date.now() + ms;
    let t = await getTask(p, id);
    while (t.status.state !== state && Date.now() < end) {
      await sleep(100);
      t = await getTask(p, id);
    }
    return t;
  };
  const ATTEMPTS = {
    attempts: [
      [{ artifact: { name: 'report', data: { score: 1 } } }],
      [{ artifact: { name: 'report', data: { score: 9 } } }],
    ],
  };
  return { w, activate, create, created, decide, getTask, isPending, restart, waitState, ATTEMPTS };
}
