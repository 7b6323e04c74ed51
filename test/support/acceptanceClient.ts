// A small client for the agent's acceptance-criteria tests: JSON-RPC in either generation with the
// extension activated (and optionally hitl-prompt/v1 and a bearer token), gated tasks created from
// a script (with per-attempt artifacts), and decisions. Independent of rig/client on purpose.
import {
  ACCEPTANCE_URI,
  CRITERIA_KEY,
  DECISION_KEY,
  DECIDERS_KEY,
  PENDING_KEY,
} from '../../rig/protocol/acceptance.ts';
import { HITL } from './inProcessAgent.ts';
import { METHOD, userMessage, type Gen, type RpcReply } from './rpcClient.ts';

export { ACCEPTANCE_URI, PENDING_KEY };

export interface CallOptions {
  /** Activate the acceptance extension (default true). */
  acceptance?: boolean;
  hitl?: boolean;
  token?: string;
}

export function accHeaders(gen: Gen, opts: CallOptions = {}): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json' };
  if (gen === '1.0') h['A2A-Version'] = '1.0';
  const uris = [...(opts.acceptance !== false ? [ACCEPTANCE_URI] : []), ...(opts.hitl ? [HITL] : [])];
  if (uris.length > 0) h[gen === '1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions'] = uris.join(', ');
  if (opts.token !== undefined) h.authorization = `Bearer ${opts.token}`;
  return h;
}

let nextId = 1;

export async function call(
  url: string,
  gen: Gen,
  method: string,
  params: unknown,
  opts: CallOptions = {},
): Promise<RpcReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: accHeaders(gen, opts),
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export interface GatedTaskSpec {
  steps?: unknown[];
  attempts?: unknown[][];
  criteria?: unknown;
  deciders?: string[];
  /** Send with returnImmediately / blocking:false. */
  immediate?: boolean;
}

/** The default script of these tests: one artifact, then complete. */
export const ONE_ARTIFACT = [{ artifact: { name: 'result', text: 'first draft' } }, { complete: {} }];

export function gatedMessage(gen: Gen, spec: GatedTaskSpec = {}) {
  const script = { steps: spec.steps ?? ONE_ARTIFACT, ...(spec.attempts ? { attempts: spec.attempts } : {}) };
  const metadata: Record<string, unknown> = {};
  if (spec.criteria !== undefined) metadata[CRITERIA_KEY] = spec.criteria;
  if (spec.deciders !== undefined) metadata[DECIDERS_KEY] = spec.deciders;
  return userMessage(gen, {
    data: { 'a2a-rig/script': script },
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  });
}

function configOf(gen: Gen, immediate?: boolean) {
  if (!immediate) return {};
  return { configuration: gen === '1.0' ? { returnImmediately: true } : { blocking: false } };
}

/** Sends a creating message; the reply as it came. */
export function createGated(
  url: string,
  gen: Gen,
  spec: GatedTaskSpec = {},
  opts: CallOptions = {},
): Promise<RpcReply> {
  return call(url, gen, METHOD[gen].send, { message: gatedMessage(gen, spec), ...configOf(gen, spec.immediate) }, opts);
}

/** The task of a successful send of either generation. */
export function taskIn(gen: Gen, reply: RpcReply): any {
  if (reply.body.error) throw new Error(`expected a task, got error ${JSON.stringify(reply.body.error)}`);
  return gen === '1.0' ? reply.body.result.task : reply.body.result;
}

export type DecisionSpec =
  { action: 'accept' } | { action: 'reject'; reason?: string; retry?: boolean } | Record<string, unknown>;

export function decisionMessage(gen: Gen, taskId: string, decision: DecisionSpec, feedback = 'decision') {
  const message = userMessage(gen, { taskId, text: feedback, metadata: { [DECISION_KEY]: decision } });
  return { ...message, extensions: [ACCEPTANCE_URI] };
}

export function decide(
  url: string,
  gen: Gen,
  taskId: string,
  decision: DecisionSpec,
  opts: CallOptions & { feedback?: string } = {},
): Promise<RpcReply> {
  return call(url, gen, METHOD[gen].send, { message: decisionMessage(gen, taskId, decision, opts.feedback) }, opts);
}

export async function fetchTask(url: string, gen: Gen, taskId: string, historyLength?: number): Promise<any> {
  const got = await call(url, gen, METHOD[gen].get, {
    id: taskId,
    ...(historyLength !== undefined ? { historyLength } : {}),
  });
  if (got.body.error) throw new Error(`get ${taskId}: ${JSON.stringify(got.body.error)}`);
  return got.body.result;
}

export function isPending(task: any): boolean {
  return task.status?.message?.metadata?.[PENDING_KEY] === true;
}

export const REJECT = { action: 'reject', reason: 'QUALITY_THRESHOLD_NOT_MET' } as const;
export const ACCEPT = { action: 'accept' } as const;

/** Polls (bounded) until `until` holds for the task; returns the task. */
export async function waitForTask(
  url: string,
  gen: Gen,
  taskId: string,
  until: (task: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const task = await fetchTask(url, gen, taskId);
    if (until(task)) return task;
    if (Date.now() > end)
      throw new Error(
        `task ${taskId} did not reach the awaited state within ${timeoutMs} ms: ${JSON.stringify(task.status)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
