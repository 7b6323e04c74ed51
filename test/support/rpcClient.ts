// A deliberately small A2A client for the agent's own tests: JSON-RPC calls in either generation,
// SSE streams read to the end (with eventsource-parser), and the replay socket. The rig's real
// client lives in rig/client; this one stays independent so the agent is not tested by itself.
import { createParser } from 'eventsource-parser';
import WebSocket from 'ws';
import { HITL } from './inProcessAgent.ts';

export type Gen = '0.3' | '1.0';

export interface RpcReply {
  status: number;
  headers: Headers;
  body: any;
}

export function headersFor(gen: Gen, hitl = true): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json' };
  if (gen === '1.0') h['A2A-Version'] = '1.0';
  if (hitl) h[gen === '1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions'] = HITL;
  return h;
}

export const METHOD = {
  '0.3': {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    cancel: 'tasks/cancel',
    subscribe: 'tasks/resubscribe',
  },
  '1.0': {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    cancel: 'CancelTask',
    subscribe: 'SubscribeToTask',
  },
} as const;

let nextId = 1;

export async function rpc(url: string, gen: Gen, method: string, params: unknown, hitl = true): Promise<RpcReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: headersFor(gen, hitl),
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** A user message in the generation's shape. `data` becomes a data part. */
export function userMessage(
  gen: Gen,
  opts: { text?: string; data?: unknown; taskId?: string; metadata?: unknown; messageId?: string } = {},
) {
  const parts: unknown[] = [];
  if (opts.text !== undefined || opts.data === undefined)
    parts.push(gen === '1.0' ? { text: opts.text ?? 'hello' } : { kind: 'text', text: opts.text ?? 'hello' });
  if (opts.data !== undefined) parts.push(gen === '1.0' ? { data: opts.data } : { kind: 'data', data: opts.data });
  return {
    messageId: opts.messageId ?? `m-${nextId++}`,
    role: gen === '1.0' ? 'ROLE_USER' : 'user',
    parts,
    ...(opts.taskId ? { taskId: opts.taskId } : {}),
    ...(opts.metadata ? { metadata: opts.metadata } : {}),
  };
}

export function scriptData(steps: unknown[]) {
  return { 'a2a-rig/script': { steps } };
}

/** The task inside a send result of either generation. */
export function taskOf(gen: Gen, result: any): any {
  return gen === '1.0' ? result.task : result;
}

export function stateOf(gen: Gen, task: any): string {
  const s = task.status.state as string;
  return gen === '1.0' ? s : `TASK_STATE_${s.toUpperCase().replace(/-/g, '_')}`;
}

export function envelopeOf(task: any): any {
  return task.status.message?.metadata?.[HITL];
}

export function answerMessage(gen: Gen, taskId: string, promptId: string, payload: unknown) {
  return userMessage(gen, {
    taskId,
    text: 'answer',
    metadata: { hitl_response_for: { prompt_id: promptId, payload } },
  });
}

/** Reads an SSE response to its end (bounded), returning each `data:` payload parsed. */
export async function readSse(res: Response, timeoutMs = 10_000): Promise<any[]> {
  const events: any[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const deadline = setTimeout(() => reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    clearTimeout(deadline);
  }
  return events;
}

export async function rpcStream(
  url: string,
  gen: Gen,
  method: string,
  params: unknown,
  hitl = true,
): Promise<{ status: number; headers: Headers; events: any[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headersFor(gen, hitl), accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  if (!res.headers.get('content-type')?.includes('text/event-stream'))
    return { status: res.status, headers: res.headers, events: [await res.json()] };
  return { status: res.status, headers: res.headers, events: await readSse(res) };
}

export interface ReplayFrame {
  seq: number;
  eventId: string;
  taskId: string;
  event: any;
}

/**
 * Opens the replay socket and collects frames until `until` says stop, the socket closes, or the
 * time bound passes. Returns the frames and the close code (if closed).
 */
export async function replay(
  url: string,
  taskId: string,
  since = 0,
  opts: { version?: Gen; until?: (frames: ReplayFrame[]) => boolean; timeoutMs?: number } = {},
): Promise<{ frames: ReplayFrame[]; closeCode?: number; closeReason?: string }> {
  const version = opts.version ? `&version=${opts.version}` : '';
  const wsUrl = `${url.replace(/^http/, 'ws')}/events?task=${encodeURIComponent(taskId)}&since=${since}${version}`;
  const ws = new WebSocket(wsUrl);
  const frames: ReplayFrame[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(), opts.timeoutMs ?? 5_000);
    let closeCode: number | undefined;
    let closeReason: string | undefined;
    function finish() {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      resolve({ frames, closeCode, closeReason });
    }
    ws.on('message', (data) => {
      frames.push(JSON.parse(String(data)));
      if (opts.until?.(frames)) finish();
    });
    ws.on('close', (code, reason) => {
      closeCode = code;
      closeReason = String(reason);
      finish();
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Opens an SSE call and yields each parsed `data:` payload as it arrives (bounded by timeoutMs). */
export async function* sseIterate(
  url: string,
  gen: Gen,
  method: string,
  params: unknown,
  timeoutMs = 10_000,
): AsyncGenerator<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headersFor(gen, true), accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const queue: any[] = [];
  const parser = createParser({ onEvent: (e) => queue.push(JSON.parse(e.data)) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift();
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    while (queue.length > 0) yield queue.shift();
  } finally {
    await reader.cancel().catch(() => {});
  }
}
