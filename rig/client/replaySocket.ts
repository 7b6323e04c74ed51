// The replay plane's client: a WebSocket to `/events?task=<id>&since=<seq>[&version=1.0]` that
// receives `{seq, eventId, taskId, event}` frames (stored events after `since`, then live ones) and
// ends with a close code (1000 when the task is terminal; the reference agent uses 4400 for a bad
// request and 4404 for an unknown task). Bounded: handshake time, frame size (ws `maxPayload`),
// frame count, bytes in all, the estimated weight of the events it delivers (the event history's
// per-connection bound), and lifetime. Reconnect-friendly: `lastSeq` is the cursor to pass as
// `since` to the next socket.
import WebSocket from 'ws';
import type { Generation } from '../protocol/a2aTypes.ts';
import { JsonRefusedError, UnsafeJsonError, parseAgentJson } from '../protocol/safeJson.ts';
import { streamEventFromWire } from '../protocol/wireInbound.ts';
import { RetentionBoundError, type EventHistory } from './eventHistory.ts';
import { accessRequestHeaders, echoedExtensions } from './a2aHeaders.ts';
import { credentialTls, type TargetAccess } from './credentials.ts';
import { EventBuffer, type EventIntake, type ReceivedEvent } from './receivedEvents.ts';
import { TransportError } from './transportError.ts';

export interface ReplayLimits {
  handshakeTimeoutMs: number;
  /** Bytes of one frame (ws closes with 1009 beyond it). */
  maxFrameBytes: number;
  /** Frames one socket may receive. */
  maxFrames: number;
  /** Bytes one socket may receive in all (frame payloads). */
  maxSocketBytes: number;
  /** Whole life of one socket. */
  lifetimeMs: number;
}

export const DEFAULT_REPLAY_LIMITS: Readonly<ReplayLimits> = Object.freeze({
  handshakeTimeoutMs: 5_000,
  maxFrameBytes: 1024 * 1024,
  maxFrames: 100_000,
  maxSocketBytes: 64 * 1024 * 1024,
  lifetimeMs: 120_000,
});

export interface ReplayOpenOptions {
  /** The agent's base URL (http or https); `/events` is resolved against it. */
  agentUrl: string;
  taskId: string;
  /** Replay events with seq greater than this (0 = everything). */
  since?: number;
  generation: Generation;
  extensions: readonly string[];
  limits?: Partial<ReplayLimits>;
  intake: EventIntake;
  history: EventHistory;
  /** How the socket's URL is named in messages (a proxied client names the target and the hop). */
  describeUrl?: (url: string) => string;
  /** The user's headers, TLS trust and `--activate` extensions. */
  access?: TargetAccess;
}

export type ReplayEnd =
  /** The agent closed the socket (1000 at a terminal task; 4xxx for refusals). */
  | { reason: 'closed-by-agent'; code: number; message: string }
  /** The rig closed or dropped it. */
  | { reason: 'closed'; code: number }
  /** A bound was hit, the connection broke, or a frame was not a replay frame. */
  | { reason: 'failed'; error: TransportError };

function replayUrl(options: ReplayOpenOptions): string {
  const url = new URL('/events', options.agentUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('task', options.taskId);
  url.searchParams.set('since', String(options.since ?? 0));
  if (options.generation === '1.0') url.searchParams.set('version', '1.0');
  return url.toString();
}

export class ReplaySocket implements AsyncIterable<ReceivedEvent> {
  readonly connectionId: string;
  readonly taskId: string;
  readonly since: number;
  /** Extensions the agent echoed on the upgrade response. */
  echoedExtensions: string[] = [];
  /** Highest seq received so far (starts at `since`): the cursor for the next socket. */
  lastSeq: number;
  private readonly buffer: EventBuffer<ReplayEnd>;
  private closedByRig = false;
  private bytes = 0;
  private readonly name: string;

  private constructor(
    private readonly ws: WebSocket,
    private readonly options: ReplayOpenOptions,
    private readonly limits: ReplayLimits,
  ) {
    this.taskId = options.taskId;
    this.since = options.since ?? 0;
    this.lastSeq = this.since;
    this.connectionId = options.history.openConnection('replay', options.taskId, { since: this.since });
    this.name = `replay socket of ${new URL(options.agentUrl).origin} for task ${options.taskId}`;
    this.buffer = new EventBuffer<ReplayEnd>(`${this.name} [${this.connectionId}]`);
  }

  /** Opens the socket; rejects with TransportError if the handshake fails or times out. */
  static open(options: ReplayOpenOptions): Promise<ReplaySocket> {
    const limits: ReplayLimits = { ...DEFAULT_REPLAY_LIMITS, ...options.limits };
    const url = replayUrl(options);
    const ws = new WebSocket(url, {
      headers: accessRequestHeaders({ generation: options.generation, extensions: options.extensions }, options.access),
      ...(options.access?.credentials ? credentialTls(options.access.credentials) : {}),
      handshakeTimeout: limits.handshakeTimeoutMs,
      maxPayload: limits.maxFrameBytes,
      perMessageDeflate: false,
    });
    const socket = new ReplaySocket(ws, options, limits);
    return socket.start(options.describeUrl?.(url) ?? url);
  }

  private start(url: string): Promise<ReplaySocket> {
    const ws = this.ws;
    ws.on('upgrade', (res) => (this.echoedExtensions = echoedExtensions(res.headers, this.options.generation)));
    // Frames can arrive right after the handshake, before `open` resolves: take them from the start.
    ws.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    const lifetime = setTimeout(
      () => this.fail('timeout', `replay socket ${url} outlived its ${this.limits.lifetimeMs} ms bound`),
      this.limits.lifetimeMs,
    );
    ws.on('close', (code, reason) => {
      clearTimeout(lifetime);
      const end: ReplayEnd = this.closedByRig
        ? { reason: 'closed', code }
        : { reason: 'closed-by-agent', code, message: reason.toString('utf8') };
      this.finish(end, `close ${code}`);
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(this));
      ws.on('error', (err) => {
        const oversized = /maxPayload|Max payload/i.test(err.message);
        // ws reports a refused upgrade only in its message: a 401/403 is the rig turned away (credentials.ts).
        const refused = /Unexpected server response: 40[13]\b/.test(err.message);
        const connecting = ws.readyState === WebSocket.CONNECTING;
        const failure = oversized ? 'too-large' : refused ? 'unauthorized' : connecting ? 'connect' : 'socket';
        const detail = oversized
          ? `the agent sent a frame over ${this.limits.maxFrameBytes} bytes ` +
            "(the rig's bound on one frame); the rig cut it off"
          : err.message;
        const error = new TransportError(failure, `replay socket ${url}: ${detail}`, undefined, { cause: err });
        if (refused) this.options.access?.onRefused?.(error);
        if (ws.readyState === WebSocket.CONNECTING || this.buffer.end === undefined) reject(error);
        this.fail(failure, error.message);
      });
    });
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (this.buffer.end !== undefined) return;
    const n = this.buffer.events.length + 1;
    if (n > this.limits.maxFrames)
      return this.fail('too-large', `${this.name} sent more than ${this.limits.maxFrames} frames; the rig cut it off`);
    this.bytes += data.length;
    if (this.bytes > this.limits.maxSocketBytes)
      return this.fail(
        'too-large',
        `${this.name} sent more than ${this.limits.maxSocketBytes} bytes in ${n} frames; the rig cut it off`,
      );
    try {
      if (isBinary) throw new TypeError('frame is binary, expected JSON text');
      const frame = parseAgentJson(data.toString('utf8'), "the agent's replay frame");
      if (typeof frame !== 'object' || frame === null || Array.isArray(frame))
        throw new TypeError('frame must be a JSON object');
      const { seq, eventId, taskId, event } = frame as Record<string, unknown>;
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1)
        throw new TypeError('frame.seq must be a positive integer');
      if (typeof eventId !== 'string' || eventId.length === 0)
        throw new TypeError('frame.eventId must be a non-empty string');
      if (taskId !== this.taskId)
        throw new TypeError(`frame.taskId ${JSON.stringify(taskId)} is not the task asked for`);
      const canonical = streamEventFromWire(event, 'frame.event');
      this.lastSeq = Math.max(this.lastSeq, seq);
      this.buffer.push(this.options.intake.take(this.connectionId, 'replay', canonical, { seq, eventId }));
    } catch (err) {
      if (err instanceof JsonRefusedError || err instanceof RetentionBoundError)
        return this.fail('too-large', `${this.name}: frame ${n}: ${err.message}`);
      const detail = err instanceof UnsafeJsonError || err instanceof TypeError ? err.message : String(err);
      this.fail('protocol', `${this.name}: frame ${n} is not a replay frame: ${detail}`);
    }
  }

  private fail(failure: TransportError['failure'], message: string): void {
    if (this.buffer.end !== undefined) return;
    this.finish({ reason: 'failed', error: new TransportError(failure, message) }, message);
    this.ws.terminate();
  }

  private finish(end: ReplayEnd, why: string): void {
    if (this.buffer.end !== undefined) return;
    this.options.history.closeConnection(
      this.connectionId,
      end.reason === 'failed' ? end.error.message : `${end.reason} ${end.code}`,
    );
    this.buffer.finish(end, why);
  }

  /** Frames received so far, in arrival order (canonical events with seq and eventId). */
  get events(): readonly ReceivedEvent[] {
    return this.buffer.events;
  }

  /** Resolves (never rejects) once the socket has ended, with why. */
  get ended(): Promise<ReplayEnd> {
    return this.buffer.ended;
  }

  get end(): ReplayEnd | undefined {
    return this.buffer.end;
  }

  /** The first frame (received or to come) that satisfies `predicate`; bounded by `timeoutMs`. */
  waitFor(predicate: (event: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
    return this.buffer.waitFor(predicate, timeoutMs);
  }

  /** Closes with a normal close handshake (1000); resolves once closed (terminates after 2 s). */
  close(): Promise<ReplayEnd> {
    if (this.buffer.end === undefined) {
      this.closedByRig = true;
      this.ws.close(1000, 'closed by rig');
      const force = setTimeout(() => this.ws.terminate(), 2_000);
      void this.buffer.ended.then(() => clearTimeout(force));
    }
    return this.buffer.ended;
  }

  /** Drops the TCP connection without a close handshake, as a network failure would. */
  drop(): Promise<ReplayEnd> {
    if (this.buffer.end === undefined) {
      this.closedByRig = true;
      this.ws.terminate();
    }
    return this.buffer.ended;
  }

  /** A new socket for the same task that resumes after the last seq this one received. */
  reconnect(): Promise<ReplaySocket> {
    return ReplaySocket.open({ ...this.options, since: this.lastSeq });
  }

  [Symbol.asyncIterator](): AsyncIterator<ReceivedEvent> {
    return this.buffer.iterate();
  }
}
