// One hostile connection on a raw socket, from the target's loopback source address, and its one
// outcome. Every attack uses it (answer floods too): a raw socket lets an attack send what no
// client would (a truncated body, a header block byte by byte, a 2 MiB body in parts), reads the
// reply with one small parser, and measures each request's own refusal latency: a keep-alive pool
// would queue hostile requests behind each other and report the queue, not the agent.
// The socket settles once, on the first of: a complete reply, a stream's first frame that is a
// refusal, the agent's close or reset, the attack's hold bound, a connect failure, or the abort (then
// no outcome: the run is being torn down). No timer tells a served stream from a refused one: on a
// loaded box a refusal frame comes late, and a stream read only for a moment read it as served.
import { connect, type Socket } from 'node:net';
import {
  outcomeOfClose,
  outcomeOfConnectFailure,
  outcomeOfHold,
  outcomeOfReply,
  type HttpReply,
} from './attackOutcome.ts';
import { socketBudget } from './attackLimits.ts';
import { dechunk, isChunked, parseHead, type Head } from './httpReplyFraming.ts';
import type { AttackOutcome, AttackTarget } from './attackTypes.ts';

/**
 * Bytes of a reply's head kept before the socket is dropped as garbage; bytes of its body kept for
 * the detail and `error.code`.
 */
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_BODY_KEPT = 16 * 1024;
/** Last bytes kept of a reply, for the chunked terminator (`\r\n0\r\n\r\n`). */
const TAIL_BYTES = 7;

export interface SocketIo {
  socket: Socket;
  /**
   * Writes and resolves once the data is handed to the kernel (so a slow drip is really slow);
   * resolves false once the socket settled.
   */
  write(data: string | Buffer): Promise<boolean>;
  /** Waits, ending early (false) once the socket settled. */
  sleep(ms: number): Promise<boolean>;
  readonly settled: boolean;
  /** The whole body is handed to the kernel: an outcome from now on has `beforeBodyEnd: false` (oversized-answer). */
  markBodyEnd(): void;
}

export interface ExchangeOptions {
  /** Past this (from the start) with no reply and no close, the outcome is 'held'. */
  holdMs: number;
  /** What is held, for the detail ("request", "idle connection", "unread stream"). */
  what: string;
  /**
   * Called once the reply's head is complete: 'stream' keeps the connection open and stops reading
   * (unread-streams, unread-replay; after `firstFrame`): it then settles on a refusal in the first
   * frame, the agent's close (cut) or the hold bound (held). Default 'read': the reply is read to
   * its end and classified.
   */
  onHead?: (head: Head, bodySoFar: string) => 'read' | 'stream';
  /**
   * While streaming, these bytes are written every `probeMs` so a close of the agent's is seen
   * without reading (a write to a closed socket fails).
   */
  probe?: { bytes: Buffer | string; everyMs: number };
  /**
   * After a 'stream' head, reading goes on until the stream's first frame is whole, and that frame
   * decides whenever it comes: given the body after the head (de-chunked), 'wait' (no whole frame
   * yet), 'served' (reading stops for good), or the refusal it is (0.3's error frame, a WebSocket
   * close). A stream with no frame yet is held by what it is: a 2xx event stream (or 101), open.
   */
  firstFrame?: (body: Buffer) => 'wait' | 'served' | StreamRefusal;
  /** Settle 'accepted' once the first frame says served, rather than hold the stream (a preflight). */
  endWhenServed?: boolean;
  /**
   * A complete reply counts as the agent's cut (idle-connections: Node answers an idle socket's
   * timeout with 408 and a close).
   */
  replyIsCut?: boolean;
  /** Sets `beforeBodyEnd` on the outcome. */
  tracksBodyEnd?: boolean;
}

export type ExchangeEnd = AttackOutcome | 'aborted';
export interface StreamRefusal {
  code?: number;
  detail: string;
}

/** Opens a connection to the target and runs `script` on it; resolves with its one outcome. */
export function attackExchange(
  target: AttackTarget,
  signal: AbortSignal,
  options: ExchangeOptions,
  script: (io: SocketIo) => Promise<void>,
): Promise<ExchangeEnd> {
  const startedAt = performance.now();
  if (signal.aborted) return Promise.resolve('aborted');
  if (!socketBudget.take())
    return Promise.resolve(
      outcomeOfConnectFailure(startedAt, `the rig's attack socket cap (${socketBudget.limit}) is reached`),
    );
  return new Promise<ExchangeEnd>((resolve) => {
    const host = target.baseUrl.hostname.replace(/^\[|\]$/g, '');
    const socket = connect({ host, port: Number(target.baseUrl.port || 80), localAddress: target.sourceAddress });
    socket.setNoDelay(true);
    let connected = false;
    let settled = false;
    let bodyEnded = false;
    let received = Buffer.alloc(0);
    let receivedTotal = 0;
    let tail = Buffer.alloc(0);
    let head: Head | undefined;
    let headEnd = 0;
    let streaming = false;
    let streamBody = Buffer.alloc(0);
    const wakers = new Set<() => void>();
    let probe: NodeJS.Timeout | undefined;
    let budgetHeld = true;

    const finish = (end: ExchangeEnd) => {
      if (settled) return;
      settled = true;
      clearTimeout(hold);
      clearInterval(probe);
      signal.removeEventListener('abort', onAbort);
      for (const wake of wakers) wake();
      socket.destroy();
      // destroy() releases the fd now (the 'close' event comes a tick later).
      if (budgetHeld) socketBudget.give();
      budgetHeld = false;
      if (end !== 'aborted' && options.tracksBodyEnd) end.beforeBodyEnd = !bodyEnded;
      resolve(end);
    };
    socket.once('close', () => {
      if (budgetHeld) socketBudget.give();
      budgetHeld = false;
      if (settled) return;
      if (!connected) return finish(outcomeOfConnectFailure(startedAt, 'the connection closed before it was open'));
      if (head && !streaming) return finish(replyOutcome());
      const how = streaming
        ? 'closed the stream'
        : received.length > 0
          ? `closed the connection mid-reply (${received.length} bytes)`
          : 'closed the connection';
      const outcome = outcomeOfClose(startedAt, how);
      if (head) outcome.status = head.status;
      finish(outcome);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && !settled) finish(outcomeOfConnectFailure(startedAt, `${err.code ?? 'error'}: ${err.message}`));
      // After connect, an error (reset, EPIPE) is followed by 'close', which settles as a cut.
    });
    const onAbort = () => finish('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const hold = setTimeout(() => {
      const outcome = outcomeOfHold(startedAt, options.holdMs, options.what);
      if (head) outcome.status = head.status;
      finish(outcome);
    }, options.holdMs);

    const replyOutcome = (): AttackOutcome => {
      const raw = received.subarray(headEnd, headEnd + MAX_BODY_KEPT);
      const reply: HttpReply = {
        status: head!.status,
        headers: head!.headers,
        body: (isChunked(head!) ? dechunk(raw) : raw).toString('utf8'),
      };
      if (!options.replyIsCut) return outcomeOfReply(reply, startedAt);
      const outcome = outcomeOfClose(startedAt, `answered HTTP ${reply.status} and closed the connection`);
      outcome.status = reply.status;
      return outcome;
    };

    /** True once the body after the head is complete by its framing (false: wait for more or the close). */
    const bodyComplete = (): boolean => {
      const h = head!;
      const bodyBytes = receivedTotal - headEnd;
      if (isChunked(h))
        return (
          tail.toString('latin1').endsWith('\r\n0\r\n\r\n') ||
          (bodyBytes === 5 && tail.toString('latin1').endsWith('0\r\n\r\n'))
        );
      if (h.headers['content-length'] !== undefined) return bodyBytes >= Number(h.headers['content-length']);
      return h.status === 204 || h.status === 304;
    };

    let stopped = false;
    const readFirstFrame = () => {
      const said = options.firstFrame?.(isChunked(head!) ? dechunk(streamBody) : streamBody) ?? 'served';
      // Past the kept bytes with no whole frame, the frame is no refusal (those are small).
      if (said === 'wait' && streamBody.length < MAX_BODY_KEPT) return;
      const base = { startedAt, latencyMs: performance.now() - startedAt, status: head!.status };
      if (typeof said === 'object')
        finish({
          ...base,
          kind: 'refused',
          ...(said.code !== undefined ? { code: said.code } : {}),
          detail: said.detail,
        });
      else if (options.endWhenServed) finish({ ...base, kind: 'accepted', detail: `${options.what} served` });
      else stopReading();
    };
    const stopReading = () => {
      if (settled || stopped) return;
      stopped = true;
      // Never read again: the agent's writes back up into its own buffers, which is the attack.
      socket.pause();
      if (options.probe) {
        const { bytes, everyMs } = options.probe;
        probe = setInterval(() => socket.write(bytes, () => {}), everyMs);
      }
    };

    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (streaming) {
        // Past the first frame nothing is read: reading on would relieve the agent.
        if (stopped) return;
        streamBody = Buffer.concat([streamBody, chunk]);
        readFirstFrame();
        return;
      }
      // Keep the head and a bounded body prefix; past that only the byte count and the last bytes
      // (the chunked terminator) matter, so a reply of any size costs a bounded buffer.
      receivedTotal += chunk.length;
      tail = Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
      if (received.length < MAX_HEAD_BYTES + MAX_BODY_KEPT) received = Buffer.concat([received, chunk]);
      if (!head) {
        let end = received.indexOf('\r\n\r\n');
        // Skip interim 1xx replies (100 Continue); 101 is the upgrade itself.
        while (end >= 0) {
          const parsed = parseHead(received.subarray(0, end).toString('latin1'));
          if (!parsed)
            return finish({
              ...outcomeOfClose(startedAt, 'answered with something that is not HTTP'),
              kind: 'server-error',
            });
          if (parsed.status >= 100 && parsed.status < 200 && parsed.status !== 101) {
            receivedTotal -= end + 4;
            received = received.subarray(end + 4);
            end = received.indexOf('\r\n\r\n');
            continue;
          }
          head = parsed;
          headEnd = end + 4;
          break;
        }
        if (!head) {
          if (received.length > MAX_HEAD_BYTES)
            finish({
              ...outcomeOfClose(startedAt, `sent a reply head over ${MAX_HEAD_BYTES} bytes`),
              kind: 'server-error',
            });
          return;
        }
        if (options.onHead?.(head, received.subarray(headEnd).toString('utf8')) === 'stream') {
          streaming = true;
          streamBody = received.subarray(headEnd);
          readFirstFrame();
          return;
        }
      }
      if (bodyComplete()) finish(replyOutcome());
    });
    socket.once('connect', () => {
      connected = true;
      const io: SocketIo = {
        socket,
        get settled() {
          return settled;
        },
        write(data) {
          if (settled || socket.destroyed) return Promise.resolve(false);
          return new Promise<boolean>((done) => {
            wakers.add(wake);
            function wake() {
              wakers.delete(wake);
              done(!settled);
            }
            socket.write(data, () => wake());
          });
        },
        sleep(ms) {
          if (settled) return Promise.resolve(false);
          return new Promise<boolean>((done) => {
            const timer = setTimeout(wake, ms);
            wakers.add(wake);
            function wake() {
              clearTimeout(timer);
              wakers.delete(wake);
              done(!settled);
            }
          });
        },
        markBodyEnd() {
          if (!settled) bodyEnded = true;
        },
      };
      script(io).catch(() => {});
    });
  });
}

/** One request written whole, its reply awaited up to `holdMs` (past it: 'held'). */
export function sendOnce(
  target: AttackTarget,
  signal: AbortSignal,
  bytes: Buffer | string,
  holdMs: number,
): Promise<ExchangeEnd> {
  return attackExchange(target, signal, { holdMs, what: 'request' }, async (io) => {
    await io.write(bytes);
  });
}
