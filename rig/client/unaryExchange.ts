// One unary exchange on the rig's own keep-alive pool, under the same bounds as every exchange
// (exchangeBounds.ts has them for streams): overall time, time to response headers, silence between
// body chunks, and response bytes (a declared Content-Length is checked before reading). The time
// bounds share one native timer, armed for whichever bound is nearest and re-armed when it fires
// early (a body chunk only notes its time), so a fast exchange costs one setTimeout and one
// clearTimeout; the caller's signal is heard through one listener per signal, however many exchanges
// share it (callerSignals below), and the transport's close reaches the exchange through the set of
// exchanges in flight. No AbortSignal is made per exchange.
import type { ByteTally } from './byteTally.ts';
import type { ResponseHandler } from './http1Connection.ts';
import type { ResponseHeaders } from './http1ResponseHead.ts';
import type { Http1Pool, PooledExchange } from './http1Pool.ts';
import type { CutBy } from './exchangeBounds.ts';
import { SlotList } from './slotList.ts';
import { TransportError, toTransportError } from './transportError.ts';

export interface UnaryBounds {
  overallMs: number;
  headersTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  maxResponseBytes: number;
}

export interface UnaryResponse {
  status: number;
  headers: ResponseHeaders;
  text: string;
}

/** The exchanges in flight of one transport, to abort them on close (slotList.ts says why not a Set). */
export type InFlight = SlotList<'inFlightSlot', UnaryExchange>;

export function inFlightExchanges(): InFlight {
  return new SlotList('inFlightSlot');
}

/**
 * The exchanges in flight under each caller signal, told by the signal's one listener when it aborts.
 * Why not a listener per exchange: the open model hands one signal to a whole burst of iterations,
 * and Node's EventTarget keeps a signal's listeners in a linked list whose removed entries still
 * point at the next one. A removed entry that reached the old generation then keeps every later
 * exchange of the burst (its closure, request, reply and promise) alive through the young
 * generation's collections, which promote them: collections then copy most of what they find, and
 * pause the event loop for that long. A SlotList keeps no link to a member that left.
 */
type SignalMates = SlotList<'signalSlot', UnaryExchange>;
const callerSignals = new WeakMap<AbortSignal, SignalMates>();

function listenTo(signal: AbortSignal, exchange: UnaryExchange): SignalMates {
  let exchanges = callerSignals.get(signal);
  if (!exchanges) {
    const members: SignalMates = new SlotList('signalSlot');
    callerSignals.set(signal, members);
    signal.addEventListener(
      'abort',
      () => {
        for (const member of members.toArray()) member.abortByCaller();
      },
      { once: true },
    );
    exchanges = members;
  }
  exchanges.add(exchange);
  return exchanges;
}

/**
 * Sends `request` on `pool` and reads the whole reply under `bounds`. A class, not closures: one
 * object per exchange, its methods shared (the hot path makes tens of thousands a second). `tally`,
 * when given, is told every response byte the connection reads for it (the caller counts what it sent).
 */
export function runUnary(
  pool: Http1Pool,
  request: string,
  what: string,
  bounds: UnaryBounds,
  signal: AbortSignal | undefined,
  inFlight: InFlight,
  tally?: ByteTally,
): Promise<UnaryResponse> {
  return new Promise<UnaryResponse>(
    (resolve, reject) => new UnaryExchange(pool, request, what, bounds, signal, inFlight, resolve, reject, tally),
  );
}

export class UnaryExchange implements ResponseHandler {
  /** Its slots in the transport's exchanges in flight and among its signal's (slotList.ts). */
  inFlightSlot = -1;
  signalSlot = -1;
  private readonly deadline: number;
  private readonly headersBy: number;
  private status: number | undefined;
  private headers: ResponseHeaders | undefined;
  private lastChunkAt = 0;
  private first: Buffer | undefined;
  private chunks: Buffer[] | undefined;
  private size = 0;
  private cutBy: CutBy | undefined;
  private callerAborted = false;
  private settled = false;
  private exchange: PooledExchange | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer is due (performance.now() time). */
  private timerDue: number;
  /** The exchanges listening to the caller's signal with this one (callerSignals above). */
  private readonly signalMates: SignalMates | undefined;

  constructor(
    pool: Http1Pool,
    request: string,
    private readonly what: string,
    private readonly bounds: UnaryBounds,
    signal: AbortSignal | undefined,
    private readonly inFlight: InFlight,
    private readonly resolve: (r: UnaryResponse) => void,
    private readonly reject: (err: unknown) => void,
    readonly tally: ByteTally | undefined,
  ) {
    const started = performance.now();
    this.deadline = started + bounds.overallMs;
    this.headersBy = started + bounds.headersTimeoutMs;
    // The first check comes at the nearest bound that could pass: the deadline, the headers bound,
    // or the silence bound counted from now (headers come later, so it can only be later still):
    // then a reply's headers never need the timer moved, and a fast exchange sets one timer.
    this.timerDue = Math.min(this.deadline, this.headersBy, started + bounds.bodyIdleTimeoutMs);
    if (signal) {
      if (signal.aborted) {
        this.callerAborted = true;
        this.failWith(signal.reason);
        return;
      }
      this.signalMates = listenTo(signal, this);
    }
    inFlight.add(this);
    this.timer = setTimeout(UnaryExchange.check, Math.max(1, Math.ceil(this.timerDue - started)), this);
    this.exchange = pool.dispatch(request, this);
  }

  /** The caller's signal aborted. */
  abortByCaller(): void {
    this.callerAborted = true;
    this.cut(new Error('aborted by the caller'));
  }

  /** The transport closed. */
  abortBy(): void {
    this.callerAborted = true;
    this.cut(new Error('transport closed'));
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.timer);
    this.inFlight.delete(this);
    this.signalMates?.delete(this);
  }

  private failWith(err: unknown): void {
    if (this.settled) return;
    this.settle();
    const { what, bounds, cutBy, callerAborted, status } = this;
    this.reject(
      toTransportError(err, {
        what,
        headersTimeoutMs: bounds.headersTimeoutMs,
        idleTimeoutMs: bounds.bodyIdleTimeoutMs,
        overallMs: bounds.overallMs,
        cutBy,
        callerAborted,
        httpStatus: status,
      }),
    );
  }

  /** Ends the exchange from the rig's side (a bound, the caller, the transport's close, a refusal). */
  private cut(err: Error): void {
    if (this.settled) return;
    this.exchange?.abort(err);
    this.failWith(err);
  }

  private cutWith(why: CutBy): void {
    this.cutBy = why;
    this.cut(new Error(`exchange cut by its ${why} bound`));
  }

  /** The one timer: cuts the exchange at the bound that has passed, or sleeps until the nearest. */
  private static check(self: UnaryExchange): void {
    self.timer = undefined;
    if (self.settled) return;
    const now = performance.now();
    if (now >= self.deadline) return self.cutWith('deadline');
    let next: number;
    if (self.status === undefined) {
      if (now >= self.headersBy) return self.cutWith('headers');
      next = Math.min(self.deadline, self.headersBy);
    } else {
      const idleBy = self.lastChunkAt + self.bounds.bodyIdleTimeoutMs;
      if (now >= idleBy) return self.cutWith('idle');
      next = Math.min(self.deadline, idleBy);
    }
    self.arm(next, now);
  }

  private arm(due: number, now: number): void {
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(UnaryExchange.check, Math.max(1, Math.ceil(due - now)), this);
  }

  onHeaders(code: number, headers: ResponseHeaders): void {
    this.status = code;
    this.headers = headers;
    const now = (this.lastChunkAt = performance.now());
    const declared = Number(headers['content-length']);
    const max = this.bounds.maxResponseBytes;
    if (declared > max)
      return this.cut(
        new TransportError(
          'too-large',
          `${this.what}: response declares ${declared} bytes; the rig accepts at most ${max}`,
        ),
      );
    // From now on the silence bound applies: the timer must fire by it (a chunk only notes its time).
    const idleBy = now + this.bounds.bodyIdleTimeoutMs;
    if (idleBy < this.timerDue) this.arm(idleBy, now);
  }

  onData(chunk: Buffer): void {
    this.lastChunkAt = performance.now();
    this.size += chunk.length;
    const max = this.bounds.maxResponseBytes;
    if (this.size > max)
      return this.cut(
        new TransportError('too-large', `${this.what}: response body exceeded ${max} bytes; the rig cut it off`),
      );
    if (this.first === undefined) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
  }

  onComplete(): void {
    if (this.settled) return;
    this.settle();
    const body = this.chunks ? Buffer.concat(this.chunks, this.size) : this.first;
    this.resolve({ status: this.status!, headers: this.headers!, text: body ? body.toString('utf8') : '' });
  }

  onError(err: Error): void {
    this.failWith(err);
  }
}
