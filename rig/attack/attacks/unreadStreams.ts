// unread-streams: event-stream subscriptions (SubscribeToTask / tasks/resubscribe, or the
// HTTP+JSON :subscribe route) on live prompt tasks whose response is never read past its first
// event. The agent must bound them: refuse streams beyond its per-task and total bounds, and cut
// a reader whose buffer fills. Each is held up to `holdMs`; a close of the agent's is seen through
// a CRLF written every `probeMs` (HTTP/1.1 ignores empty lines between requests; a write to a
// closed socket fails), never by reading. The request asks to keep the connection alive: the
// probe's empty lines are then legal between requests (RFC 9112 §2.2), where after `Connection:
// close` the client has promised to send nothing more, and an h11 server (uvicorn) cuts the
// connection on the first probe: a cut the rig provoked, not the agent's bound.
// Before the attack, one subscription of its own (on a prompt of its own) must be served: an agent
// that refuses every subscription (a2a-sdk 0.3 answers tasks/resubscribe on a parked task with
// -32001 Task not found) has no stream to leave unread, and its refusals are no bound; the attack
// then starts nothing and says why, rather than count them as streams shed. A stream's first frame
// decides whenever it comes (docs/dos.md, what a refusal is): on a loaded box 0.3's error frame
// came after a 250 ms read window, the preflight read "served" and the refusals counted as shed.
import type { LivePrompt } from '../attackTypes.ts';
import { errorCodeOf } from '../attackOutcome.ts';
import { requestHead, subscribeRequest } from '../attackRequests.ts';
import { attackExchange, type StreamRefusal } from '../attackSocket.ts';
import { defineAttack, livePromptOr, livePrompts, MAX_HOLD_MS, REPLY_TIMEOUT_MS } from '../defineAttack.ts';

/**
 * How long the preflight waits for its stream's first frame: the frame is the agent's answer to the
 * subscription, so it gets the bound of any one-request attack's reply, and never more than the
 * attack's own `holdMs` (a refusal later than that would read as held in the attack too). Past it
 * with a head and no event (or no head: an agent that sends its headers with its first event), the
 * stream is served and the attack runs.
 */
export const PREFLIGHT_WAIT_MS = REPLY_TIMEOUT_MS;

/**
 * What an event stream's first event says: 'wait' until one is whole (comments and keep-alives are
 * no event), a refusal when its data is a JSON-RPC or HTTP+JSON error, else 'served'.
 */
export function sseFirstFrame(body: Buffer): 'wait' | 'served' | StreamRefusal {
  const blocks = body.toString('utf8').replace(/\r\n?/g, '\n').split('\n\n');
  // The last piece has no blank line after it yet: not whole.
  for (const block of blocks.slice(0, -1)) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart());
    if (data.length === 0) continue;
    const code = errorCodeOf(data.join('\n'));
    return code === undefined ? 'served' : { code, detail: `the stream's first frame is error ${code}` };
  }
  return 'wait';
}

export const unreadStreams = defineAttack({
  name: 'unread-streams',
  family: 'streams',
  description:
    'SSE subscriptions to `tasks` live prompt tasks (round robin), ' +
    'never read after their first frame, held up to `holdMs`',
  expected:
    'beyond the per-task/total stream bounds refused (429 / -32029, or rate-limited); ' +
    'an unread stream cut once its buffer bound fills',
  defaults: { tasks: 1, holdMs: 30_000, probeMs: 1_000 },
  bounds: { tasks: [1, 1_000], holdMs: [1, MAX_HOLD_MS], probeMs: [10, 60_000] },
  async prepare(target, params, notes, signal) {
    const prompts = await livePrompts(target, params.tasks, notes, signal);
    if (prompts.length === 0) return undefined;
    const requestFor = (p: LivePrompt) => {
      const { method, path, body } = subscribeRequest(target, p.taskId);
      return Buffer.from(
        requestHead(target, method, path, {
          contentLength: Buffer.byteLength(body),
          accept: 'text/event-stream',
          connection: 'keep-alive',
        }) + body,
        'utf8',
      );
    };
    const subscribe = (request: Buffer, s: AbortSignal, holdMs: number, endWhenServed: boolean) =>
      attackExchange(
        target,
        s,
        {
          holdMs,
          what: 'unread event stream',
          onHead: (head) =>
            head.status >= 200 &&
            head.status < 300 &&
            (head.headers['content-type'] ?? '').includes('text/event-stream')
              ? 'stream'
              : 'read',
          // 0.3's refused tasks/resubscribe: an event stream whose one frame is the JSON-RPC error.
          firstFrame: sseFirstFrame,
          endWhenServed,
          probe: { bytes: '\r\n', everyMs: params.probeMs },
        },
        async (io) => {
          await io.write(request);
        },
      );
    // The preflight, on a prompt of its own so it takes no place in the attack's per-task bound.
    const own = await livePromptOr(target, notes, false);
    if (!own) return undefined;
    const preflight = await subscribe(requestFor(own), signal, Math.min(PREFLIGHT_WAIT_MS, params.holdMs), true);
    // Only a plain refusal stops it: a 429 is a limit at work, a 5xx a finding, both for the attack to record.
    if (preflight !== 'aborted' && preflight.kind === 'refused') {
      notes.push(
        "the agent refuses a subscription to a live prompt's task even with no other stream open " +
          `(${preflight.detail ?? `HTTP ${preflight.status}`}): ` +
          'no stream to leave unread, and a refusal that is no bound; nothing started',
      );
      return undefined;
    }
    const requests = prompts.map(requestFor);
    return (i, s) => subscribe(requests[i % requests.length], s, params.holdMs, false);
  },
});
