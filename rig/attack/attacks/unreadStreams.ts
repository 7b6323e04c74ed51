// unread-streams: event-stream subscriptions (SubscribeToTask / tasks/resubscribe, or the
// HTTP+JSON :subscribe route) on live prompt tasks whose response is never read past its first
// frames. The agent must bound them: refuse streams beyond its per-task and total bounds, and cut
// a reader whose buffer fills. Each is held up to `holdMs`; a close of the agent's is seen through
// a CRLF written every `probeMs` (HTTP/1.1 ignores empty lines between requests; a write to a
// closed socket fails), never by reading.
import type { LivePrompt } from '../attackTypes.ts';
import { errorCodeOf } from '../attackOutcome.ts';
import { requestHead, subscribeRequest } from '../attackRequests.ts';
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, livePromptOr, MAX_HOLD_MS } from '../defineAttack.ts';

export const STREAM_GRACE_MS = 250;

export const unreadStreams = defineAttack({
  name: 'unread-streams',
  family: 'streams',
  description: 'SSE subscriptions to `tasks` live prompt tasks (round robin), never read after their first frames, held up to `holdMs`',
  expected: 'beyond the per-task/total stream bounds refused (429 / -32029, or rate-limited); an unread stream cut once its buffer bound fills',
  defaults: { tasks: 1, holdMs: 30_000, probeMs: 1_000 },
  bounds: { tasks: [1, 1_000], holdMs: [1, MAX_HOLD_MS], probeMs: [10, 60_000] },
  async prepare(target, params, notes, signal) {
    const prompts: LivePrompt[] = [];
    for (let i = 0; i < params.tasks && !signal.aborted; i++) {
      const prompt = await livePromptOr(target, notes, false);
      if (!prompt) break;
      prompts.push(prompt);
    }
    if (prompts.length === 0) return undefined;
    const requests = prompts.map((p) => {
      const { method, path, body } = subscribeRequest(target, p.taskId);
      return Buffer.from(`${requestHead(target, method, path, { contentLength: Buffer.byteLength(body), accept: 'text/event-stream' })}${body}`, 'utf8');
    });
    return (i, s) =>
      attackExchange(
        target,
        s,
        {
          holdMs: params.holdMs,
          what: 'unread event stream',
          onHead: (head) => (head.status >= 200 && head.status < 300 && (head.headers['content-type'] ?? '').includes('text/event-stream') ? 'stream' : 'read'),
          streamGrace: {
            ms: STREAM_GRACE_MS,
            refusal: (body) => {
              // 0.3's refused tasks/resubscribe: an event stream whose one frame is the JSON-RPC error.
              const text = body.toString('utf8');
              const data = /^data:\s*(.*)$/m.exec(text)?.[1];
              const code = data === undefined ? undefined : errorCodeOf(data);
              return code === undefined ? undefined : { code, detail: `the stream's first frame is error ${code}` };
            },
          },
          probe: { bytes: '\r\n', everyMs: params.probeMs },
        },
        async (io) => {
          await io.write(requests[i % requests.length]);
        },
      );
  },
});
