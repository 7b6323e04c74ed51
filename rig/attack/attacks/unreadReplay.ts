// unread-replay: WebSocket upgrades to the replay plane (/events?task=<id>&since=0, plus
// &version=1.0 for a 1.0 target) on live prompt tasks, never read after the first frame. A close
// as that frame (1013 try again later: the stream bounds), whenever it comes, is a refusal. A close of the
// agent's later is seen through an empty masked ping written every `probeMs`, never by reading.
import { randomBytes } from 'node:crypto';
import { requestHead } from '../attackRequests.ts';
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, livePrompts, MAX_HOLD_MS } from '../defineAttack.ts';

/** A client ping with no payload (client frames are masked: mask bit and a zero key). */
const PING = Buffer.from([0x89, 0x80, 0, 0, 0, 0]);

/** The server's first (unmasked) frame once it is whole: its opcode and payload. */
function firstWsFrame(frames: Buffer): { opcode: number; payload: Buffer } | undefined {
  if (frames.length < 2) return undefined;
  const short = frames[1] & 0x7f;
  const offset = short === 126 ? 4 : short === 127 ? 10 : 2;
  if (frames.length < offset) return undefined;
  const len = short === 126 ? frames.readUInt16BE(2) : short === 127 ? Number(frames.readBigUInt64BE(2)) : short;
  if (frames.length < offset + len) return undefined;
  return { opcode: frames[0] & 0x0f, payload: frames.subarray(offset, offset + len) };
}

/** The close code of the server's first frame when that is a close (1005: a close with no code). */
export function closeFrameCode(frames: Buffer): number | undefined {
  const frame = firstWsFrame(frames);
  if (frame?.opcode !== 0x8) return undefined;
  return frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
}

export const unreadReplay = defineAttack({
  name: 'unread-replay',
  family: 'streams',
  description:
    'replay-plane WebSockets (/events?task=…&since=0) to `tasks` live prompt tasks, ' +
    'never read after their first frame, held up to `holdMs`',
  expected:
    'beyond the stream bounds refused (HTTP 4xx or close 1013); an unread socket cut once its buffer bound fills',
  defaults: { tasks: 1, holdMs: 30_000, probeMs: 1_000 },
  bounds: { tasks: [1, 1_000], holdMs: [1, MAX_HOLD_MS], probeMs: [10, 60_000] },
  async prepare(target, params, notes, signal) {
    const prompts = await livePrompts(target, params.tasks, notes, signal);
    if (prompts.length === 0) return undefined;
    const paths = prompts.map((p) => {
      const url = new URL('/events', target.baseUrl);
      url.searchParams.set('task', p.taskId);
      url.searchParams.set('since', '0');
      if (target.generation === '1.0') url.searchParams.set('version', '1.0');
      return `${url.pathname}${url.search}`;
    });
    return (i, s) => {
      const key = randomBytes(16).toString('base64');
      const extra = `upgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: ${key}\r\n`;
      const head = requestHead(target, 'GET', paths[i % paths.length], { connection: 'Upgrade', extra });
      return attackExchange(
        target,
        s,
        {
          holdMs: params.holdMs,
          what: 'unread replay socket',
          onHead: (h) => (h.status === 101 ? 'stream' : 'read'),
          firstFrame: (frames) => {
            if (!firstWsFrame(frames)) return 'wait';
            const code = closeFrameCode(frames);
            return code === undefined ? 'served' : { code, detail: `the agent closed the replay socket with ${code}` };
          },
          probe: { bytes: PING, everyMs: params.probeMs },
        },
        async (io) => {
          await io.write(head);
        },
      );
    };
  },
});
