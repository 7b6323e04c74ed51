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
    // The exchange lives on in its socket's listeners and timers until it settles through `resolve`.
    new AttackExchange(target, signal, options, startedAt, resolve).open(script);
  });
}

/**
 * One exchange as a small state machine: its fields are what the socket has said so far, its
 * methods the socket's events (connect, data, error, close), the hold bound and the abort, each
 * moving the reply on (head, body, a stream's first frame, the probe) or settling it; `finish`
 * settles it once. It is the script's `SocketIo` too.
 */
class AttackExchange implements SocketIo {
  readonly socket: Socket;
  private connected = false;
  private finished = false;
  private bodyEnded = false;
  private received = Buffer.alloc(0);
  private receivedTotal = 0;
  private tail = Buffer.alloc(0);
  private head: Head | undefined;
  private headEnd = 0;
  private streaming = false;
  private streamBody = Buffer.alloc(0);
  /** The stream's first frame said served: nothing is read any more. */
  private stopped = false;
  /** The script's pending writes and sleeps, woken (false) when the exchange settles. */
  private readonly wakers = new Set<() => void>();
  private probe: NodeJS.Timeout | undefined;
  private budgetHeld = true;
  private readonly hold: NodeJS.Timeout;
  private readonly onAbort = () => this.finish('aborted');

  constructor(
    target: AttackTarget,
    private readonly signal: AbortSignal,
    private readonly options: ExchangeOptions,
    private readonly startedAt: number,
    private readonly resolve: (end: ExchangeEnd) => void,
  ) {
    const host = target.baseUrl.hostname.replace(/^\[|\]$/g, '');
    this.socket = connect({ host, port: Number(target.baseUrl.port || 80), localAddress: target.sourceAddress });
    this.socket.setNoDelay(true);
    this.socket.once('close', () => this.closed());
    this.socket.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    signal.addEventListener('abort', this.onAbort, { once: true });
    this.hold = setTimeout(() => this.held(), options.holdMs);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
  }

  /** Runs `script` once the connection is open. */
  open(script: (io: SocketIo) => Promise<void>): void {
    this.socket.once('connect', () => {
      this.connected = true;
      script(this).catch(() => {});
    });
  }

  get settled(): boolean {
    return this.finished;
  }

  write(data: string | Buffer): Promise<boolean> {
    if (this.finished || this.socket.destroyed) return Promise.resolve(false);
    return new Promise<boolean>((done) => {
      const wake = () => {
        this.wakers.delete(wake);
        done(!this.finished);
      };
      this.wakers.add(wake);
      this.socket.write(data, () => wake());
    });
  }

  sleep(ms: number): Promise<boolean> {
    if (this.finished) return Promise.resolve(false);
    return new Promise<boolean>((done) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        done(!this.finished);
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  markBodyEnd(): void {
    if (!this.finished) this.bodyEnded = true;
  }

  private finish(end: ExchangeEnd): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.hold);
    clearInterval(this.probe);
    this.signal.removeEventListener('abort', this.onAbort);
    for (const wake of this.wakers) wake();
    this.socket.destroy();
    // destroy() releases the fd now (the 'close' event comes a tick later).
    this.giveBudget();
    if (end !== 'aborted' && this.options.tracksBodyEnd) end.beforeBodyEnd = !this.bodyEnded;
    this.resolve(end);
  }

  private giveBudget(): void {
    if (this.budgetHeld) socketBudget.give();
    this.budgetHeld = false;
  }

  private closed(): void {
    this.giveBudget();
    if (this.finished) return;
    if (!this.connected)
      return this.finish(outcomeOfConnectFailure(this.startedAt, 'the connection closed before it was open'));
    if (this.head && !this.streaming) return this.finish(this.replyOutcome());
    const how = this.streaming
      ? 'closed the stream'
      : this.received.length > 0
        ? `closed the connection mid-reply (${this.received.length} bytes)`
        : 'closed the connection';
    const outcome = outcomeOfClose(this.startedAt, how);
    if (this.head) outcome.status = this.head.status;
    this.finish(outcome);
  }

  private failed(err: NodeJS.ErrnoException): void {
    if (!this.connected && !this.finished)
      this.finish(outcomeOfConnectFailure(this.startedAt, `${err.code ?? 'error'}: ${err.message}`));
    // After connect, an error (reset, EPIPE) is followed by 'close', which settles as a cut.
  }

  private held(): void {
    const outcome = outcomeOfHold(this.startedAt, this.options.holdMs, this.options.what);
    if (this.head) outcome.status = this.head.status;
    this.finish(outcome);
  }

  private read(chunk: Buffer): void {
    if (this.finished) return;
    if (this.streaming) return this.readStream(chunk);
    this.keep(chunk);
    if (!this.head) {
      const head = this.findHead();
      if (!head) return;
      if (this.options.onHead?.(head, this.received.subarray(this.headEnd).toString('utf8')) === 'stream')
        return this.startStream();
    }
    if (this.bodyComplete()) this.finish(this.replyOutcome());
  }

  /**
   * Keeps the head and a bounded body prefix; past that only the byte count and the last bytes
   * (the chunked terminator) matter, so a reply of any size costs a bounded buffer.
   */
  private keep(chunk: Buffer): void {
    this.receivedTotal += chunk.length;
    this.tail = Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
    if (this.received.length < MAX_HEAD_BYTES + MAX_BODY_KEPT) this.received = Buffer.concat([this.received, chunk]);
  }

  /** The reply's head once it is whole (settling on garbage or an oversized head); undefined before. */
  private findHead(): Head | undefined {
    let end = this.received.indexOf('\r\n\r\n');
    // Skip interim 1xx replies (100 Continue); 101 is the upgrade itself.
    while (end >= 0) {
      const parsed = parseHead(this.received.subarray(0, end).toString('latin1'));
      if (!parsed) {
        this.finish({
          ...outcomeOfClose(this.startedAt, 'answered with something that is not HTTP'),
          kind: 'server-error',
        });
        return undefined;
      }
      if (parsed.status >= 100 && parsed.status < 200 && parsed.status !== 101) {
        this.receivedTotal -= end + 4;
        this.received = this.received.subarray(end + 4);
        end = this.received.indexOf('\r\n\r\n');
        continue;
      }
      this.head = parsed;
      this.headEnd = end + 4;
      return parsed;
    }
    if (this.received.length > MAX_HEAD_BYTES)
      this.finish({
        ...outcomeOfClose(this.startedAt, `sent a reply head over ${MAX_HEAD_BYTES} bytes`),
        kind: 'server-error',
      });
    return undefined;
  }

  /** True once the body after the head is complete by its framing (false: wait for more or the close). */
  private bodyComplete(): boolean {
    const h = this.head!;
    const bodyBytes = this.receivedTotal - this.headEnd;
    if (isChunked(h))
      return (
        this.tail.toString('latin1').endsWith('\r\n0\r\n\r\n') ||
        (bodyBytes === 5 && this.tail.toString('latin1').endsWith('0\r\n\r\n'))
      );
    if (h.headers['content-length'] !== undefined) return bodyBytes >= Number(h.headers['content-length']);
    return h.status === 204 || h.status === 304;
  }

  private replyOutcome(): AttackOutcome {
    const head = this.head!;
    const raw = this.received.subarray(this.headEnd, this.headEnd + MAX_BODY_KEPT);
    const reply: HttpReply = {
      status: head.status,
      headers: head.headers,
      body: (isChunked(head) ? dechunk(raw) : raw).toString('utf8'),
    };
    if (!this.options.replyIsCut) return outcomeOfReply(reply, this.startedAt);
    const outcome = outcomeOfClose(this.startedAt, `answered HTTP ${reply.status} and closed the connection`);
    outcome.status = reply.status;
    return outcome;
  }

  private startStream(): void {
    this.streaming = true;
    this.streamBody = this.received.subarray(this.headEnd);
    this.readFirstFrame();
  }

  private readStream(chunk: Buffer): void {
    // Past the first frame nothing is read: reading on would relieve the agent.
    if (this.stopped) return;
    this.streamBody = Buffer.concat([this.streamBody, chunk]);
    this.readFirstFrame();
  }

  private readFirstFrame(): void {
    const head = this.head!;
    const said = this.options.firstFrame?.(isChunked(head) ? dechunk(this.streamBody) : this.streamBody) ?? 'served';
    // Past the kept bytes with no whole frame, the frame is no refusal (those are small).
    if (said === 'wait' && this.streamBody.length < MAX_BODY_KEPT) return;
    const base = { startedAt: this.startedAt, latencyMs: performance.now() - this.startedAt, status: head.status };
    if (typeof said === 'object')
      this.finish({
        ...base,
        kind: 'refused',
        ...(said.code !== undefined ? { code: said.code } : {}),
        detail: said.detail,
      });
    else if (this.options.endWhenServed)
      this.finish({ ...base, kind: 'accepted', detail: `${this.options.what} served` });
    else this.stopReading();
  }

  private stopReading(): void {
    if (this.finished || this.stopped) return;
    this.stopped = true;
    // Never read again: the agent's writes back up into its own buffers, which is the attack.
    this.socket.pause();
    if (this.options.probe) {
      const { bytes, everyMs } = this.options.probe;
      this.probe = setInterval(() => this.socket.write(bytes, () => {}), everyMs);
    }
  }
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
