// The one classification of what an agent did with a hostile request or connection, shared by every
// attack so an outcome means the same thing in every scenario:
//   reply 429 or 503 with Retry-After        → rate-limited (a rate limit working)
//   reply 5xx otherwise                       → server-error (the agent failed under the attack)
//   reply 4xx (408, 413, 431, 409, 422, ...)  → refused
//   reply 2xx whose JSON carries `error`      → refused (JSON-RPC errors travel with HTTP 200)
//   reply 1xx-3xx otherwise                   → accepted (the agent did what the attack asked)
//   the agent closed or reset the connection  → cut (with the status when a reply head came first)
//   a reply that is not HTTP, or its head over 64 KiB → server-error
//   a refusal in a stream's first frames (0.3's error frame, a WebSocket close such as 1013) → refused
//   the attack's own hold bound passed        → held (an unread stream or upgraded socket kept open too)
//   the connection could not be opened        → connect-failed
// `code` is the JSON-RPC `error.code`, the 1.0 HTTP+JSON (AIP-193) `error.code` (the HTTP status
// again) or the 0.3 HTTP+JSON `code` beside its named `error`, when the body has one.
import type { AttackOutcome } from './attackTypes.ts';

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  /** The body as far as it was read (a bounded prefix is enough to find `error.code`). */
  body: string;
}

/** The `error.code` of a JSON-RPC or HTTP+JSON error body; undefined when there is none or the body is not JSON. */
export function errorCodeOf(body: string): number | undefined {
  const text = body.trimStart();
  if (!text.startsWith('{') && !text.startsWith('data:')) return undefined;
  // An SSE stream's first frame (0.3's refused tasks/resubscribe) carries the error after `data:`.
  const json = text.startsWith('data:') ? text.slice(5).split('\n')[0] : text;
  try {
    const value = JSON.parse(json) as { error?: { code?: unknown } | string; code?: unknown };
    // JSON-RPC and 1.0 HTTP+JSON nest the code in `error`; 0.3 HTTP+JSON names the error and puts the code beside it.
    const code = typeof value?.error === 'string' ? value.code : value?.error?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    // A prefix cut by the read bound: find the code where a JSON error object puts it.
    const m =
      /"error"\s*:\s*\{[^}]*?"code"\s*:\s*(-?\d+)/.exec(json) ??
      /^\{\s*"error"\s*:\s*"[^"]*"\s*,\s*"code"\s*:\s*(-?\d+)/.exec(json);
    return m ? Number(m[1]) : undefined;
  }
}

function hasErrorMember(body: string): boolean {
  return (
    errorCodeOf(body) !== undefined ||
    /^\s*(data:\s*)?\{\s*("jsonrpc"\s*:\s*"2\.0"\s*,\s*)?("id"\s*:[^,]*,\s*)?"error"\s*:/.test(body)
  );
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The outcome of an HTTP reply to a hostile request. */
export function outcomeOfReply(reply: HttpReply, startedAt: number, now = performance.now()): AttackOutcome {
  const retryAfter = reply.headers['retry-after'] !== undefined;
  const code = errorCodeOf(reply.body);
  const base = {
    startedAt,
    latencyMs: now - startedAt,
    status: reply.status,
    ...(code !== undefined ? { code } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
  const codeNote = code !== undefined ? ` code ${code}` : '';
  const retryNote = retryAfter ? ` Retry-After ${reply.headers['retry-after']}` : '';
  const bodyNote = reply.body ? `: ${oneLine(reply.body)}` : '';
  const detail = `HTTP ${reply.status}${codeNote}${retryNote}${bodyNote}`;
  let kind: AttackOutcome['kind'];
  if ((reply.status === 429 || reply.status === 503) && retryAfter) kind = 'rate-limited';
  else if (reply.status >= 500) kind = 'server-error';
  else if (reply.status >= 400) kind = 'refused';
  else if (hasErrorMember(reply.body)) kind = 'refused';
  else kind = 'accepted';
  return { ...base, kind, detail };
}

/** The agent closed (FIN) or reset the connection before replying. */
export function outcomeOfClose(startedAt: number, how: string, now = performance.now()): AttackOutcome {
  return {
    startedAt,
    latencyMs: now - startedAt,
    kind: 'cut',
    detail: `the agent ${how} after ${Math.round(now - startedAt)} ms`,
  };
}

/** The attack's own bound passed with no refusal. */
export function outcomeOfHold(startedAt: number, holdMs: number, what: string, now = performance.now()): AttackOutcome {
  return {
    startedAt,
    latencyMs: now - startedAt,
    kind: 'held',
    detail: `${what} still open at the attack's ${holdMs} ms bound`,
  };
}

export function outcomeOfConnectFailure(startedAt: number, reason: string, now = performance.now()): AttackOutcome {
  return { startedAt, latencyMs: now - startedAt, kind: 'connect-failed', detail: reason };
}
