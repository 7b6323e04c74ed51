// One scenario's own traffic to the agent, as results.json `traffic` carries it (runResult.ts
// TrafficRecord) and as the live display shows it once a second (LiveTraffic, a run observer's onTraffic).
// Fed by the rig's A2A client (an ExchangeObserver: every JSON-RPC exchange, its operation, how it
// ended, its latency and bytes) and by open-model loads (arrivals as they come due, iterations as
// they succeed). Attack traffic (rig/attack/, raw sockets) never passes here.
//
// What counts:
// - an exchange is one JSON-RPC request and its reply: a unary call until its body is read, a
//   stream until its headers arrive (then it is counted as ended; its events are not exchanges);
// - operations by their v1.0 names whatever the wire's generation, and `answer` / `decision` apart;
// - bytes: unary calls as written and read on the socket; streams as undici writes the request and
//   the parsed response head, then every body byte until the stream ends or the scenario closes it
//   (read when the record is made);
// - over time, buckets of one width (100 ms, doubled as needed so a scenario keeps at most 120):
//   exchanges ended (and errors among them), in flight (busy time / bucket width: each exchange's
//   [end - latency, end] spread over the buckets it covers, so it adds up exactly across merges),
//   the most open at once (from the opens and ends as they happened), and for open-model loads the
//   arrivals that came due (offered) and the iterations that succeeded (achieved) in the bucket.
import * as hdr from 'hdr-histogram-js';
import type { ExchangeEnd, ExchangeObserver, ExchangeTraffic } from '../client/exchangeObserver.ts';
import { DEFAULT_TIMELINE_BUCKETS } from './latencyTimeline.ts';
import { OperationTraffic } from './operationTraffic.ts';
import type { LiveTraffic, TrafficPoint, TrafficRecord } from './trafficRecord.ts';

const FIRST_BUCKET_MS = 100;

interface Bucket {
  completed: number;
  errors: number;
  busyMs: number;
  maxOpen: number;
  offered: number;
  achieved: number;
}

const newBucket = (): Bucket => ({ completed: 0, errors: 0, busyMs: 0, maxOpen: 0, offered: 0, achieved: 0 });

/** Told as an open-model arrival comes due and as an iteration succeeds (openModelExecutor's LoadObserver). */
export interface LoadTraffic {
  due(intendedAt: number): void;
  succeeded(endedAt: number): void;
}

export interface TrafficRecorderOptions {
  /** Keep what `liveSecond` reports (the last second's latencies); off when nobody watches live. */
  live?: boolean;
  maxBuckets?: number;
  /** performance.now() by default (tests pass their own clock). */
  now?: () => number;
}

export class TrafficRecorder implements ExchangeObserver, LoadTraffic {
  private bucketMs = FIRST_BUCKET_MS;
  private buckets: Bucket[] = [];
  /** The latest bucket the open count has been carried into. */
  private carried = -1;
  private open = 0;
  private readonly operations = new OperationTraffic();
  private requests = 0;
  private errors = 0;
  private loadsRunning = 0;
  private loadRan = false;
  private readonly maxBuckets: number;
  private readonly now: () => number;
  // The last second, for liveSecond().
  private readonly live: boolean;
  private window: hdr.Histogram | undefined;
  private windowStart: number;
  private windowEnded = 0;
  private windowErrors = 0;
  private windowOpened = 0;
  private windowOffered = 0;

  /** `origin`: the performance.now() time that is t = 0 (the scenario's start). */
  constructor(
    private readonly origin: number,
    options: TrafficRecorderOptions = {},
  ) {
    this.maxBuckets = options.maxBuckets ?? DEFAULT_TIMELINE_BUCKETS;
    this.now = options.now ?? (() => performance.now());
    this.live = options.live === true;
    this.windowStart = origin;
  }

  // ExchangeObserver

  opening(): void {
    const i = this.indexAt(this.now());
    this.carry(i);
    this.open++;
    const b = this.bucket(i);
    if (this.open > b.maxOpen) b.maxOpen = this.open;
    this.windowOpened++;
  }

  exchange(_method: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void {
    const at = this.now();
    const i = this.indexAt(at);
    this.carry(i);
    if (this.open > 0) this.open--;
    const error = end !== 'ok';
    const b = this.bucket(i);
    b.completed++;
    if (error) b.errors++;
    this.spread(at - latencyMs, at, i);
    this.requests++;
    if (error) this.errors++;
    this.operations.record(traffic?.operation ?? _method, end, latencyMs, traffic);
    if (this.live) {
      this.windowEnded++;
      if (error) this.windowErrors++;
      (this.window ??= hdr.build({
        bitBucketSize: 32,
        lowestDiscernibleValue: 1,
        highestTrackableValue: 3_600_000_000,
        numberOfSignificantValueDigits: 3,
      })).recordValue(Math.min(3_600_000_000, Math.max(1, Math.round(latencyMs * 1000))));
    }
  }

  /** Answers are counted as exchanges (operation `answer`); nothing more to record here. */
  answer(): void {}

  // LoadTraffic

  /** An open-model load begins (its arrivals and iterations are counted; `offeredPerS` is reported live). */
  loadStarted(): void {
    this.loadsRunning++;
    this.loadRan = true;
  }

  loadEnded(): void {
    if (this.loadsRunning > 0) this.loadsRunning--;
  }

  due(intendedAt: number): void {
    this.bucket(this.indexAt(intendedAt)).offered++;
    this.windowOffered++;
  }

  succeeded(endedAt: number): void {
    this.bucket(this.indexAt(endedAt)).achieved++;
  }

  // Results

  /** Exchanges open now. */
  get inFlight(): number {
    return this.open;
  }

  /** The record for results.json; undefined when the scenario sent nothing. */
  toRecord(): TrafficRecord | undefined {
    if (this.operations.empty && !this.loadRan) return undefined;
    this.carry(this.indexAt(this.now()));
    const { operations, totals } = this.operations.stats();
    const points: TrafficPoint[] = [];
    for (let i = 0; i < this.buckets.length; i++) {
      const b = this.buckets[i] ?? newBucket();
      const point: TrafficPoint = {
        t: i * this.bucketMs,
        completed: b.completed,
        errors: b.errors,
        inFlight: round3(b.busyMs / this.bucketMs),
        inFlightMax: b.maxOpen,
      };
      if (this.loadRan) {
        point.offered = b.offered;
        point.achieved = b.achieved;
      }
      points.push(point);
    }
    return { bucketMs: this.bucketMs, operations, totals, points };
  }

  /**
   * What the last second (since the previous call) looked like, and starts the next; undefined when
   * nothing was sent, ended or open in it.
   */
  liveSecond(): LiveTraffic | undefined {
    const now = this.now();
    const seconds = Math.max(1e-3, (now - this.windowStart) / 1000);
    const sawTraffic = this.windowEnded > 0 || this.windowOpened > 0 || this.open > 0;
    let live: LiveTraffic | undefined;
    if (sawTraffic) {
      live = {
        ratePerS: round1(this.windowEnded / seconds),
        errorsPerS: round1(this.windowErrors / seconds),
        inFlight: this.open,
        requests: this.requests,
        errors: this.errors,
      };
      if (this.windowEnded > 0 && this.window) {
        live.p50Ms = round3(this.window.getValueAtPercentile(50) / 1000);
        live.p95Ms = round3(this.window.getValueAtPercentile(95) / 1000);
      }
      if (this.loadsRunning > 0) live.offeredPerS = round1(this.windowOffered / seconds);
    }
    this.windowStart = now;
    this.windowEnded = this.windowErrors = this.windowOpened = this.windowOffered = 0;
    this.window?.reset();
    return live;
  }

  // Buckets

  /** The bucket index of a performance.now() time (before the origin: the first), widening as needed. */
  private indexAt(at: number): number {
    let i = Math.floor(Math.max(0, at - this.origin) / this.bucketMs);
    while (i >= this.maxBuckets) {
      this.widen();
      i = Math.floor(i / 2);
    }
    return i;
  }

  private bucket(i: number): Bucket {
    while (this.buckets.length <= i) this.buckets.push(newBucket());
    return this.buckets[i]!;
  }

  /** The open count held from the last bucket it was carried into up to bucket `i`: their maxima include it. */
  private carry(i: number): void {
    if (i <= this.carried) return;
    if (this.open > 0) {
      for (let k = this.carried + 1; k <= i; k++) {
        const b = this.bucket(k);
        if (this.open > b.maxOpen) b.maxOpen = this.open;
      }
    }
    this.carried = i;
  }

  /** Busy time of an exchange open from `start` to `end` (performance.now() times), `end` in bucket `last`. */
  private spread(start: number, end: number, last: number): void {
    const w = this.bucketMs;
    const s = Math.max(0, start - this.origin);
    const e = Math.max(s, end - this.origin);
    for (let k = Math.min(last, Math.floor(s / w)); k <= last; k++) {
      const overlap = Math.min(e, (k + 1) * w) - Math.max(s, k * w);
      if (overlap > 0) this.bucket(k).busyMs += overlap;
    }
  }

  private widen(): void {
    this.bucketMs *= 2;
    const merged: Bucket[] = [];
    for (let i = 0; i < this.buckets.length; i += 2) {
      const a = this.buckets[i]!;
      const b = this.buckets[i + 1];
      merged.push(
        b
          ? {
              completed: a.completed + b.completed,
              errors: a.errors + b.errors,
              busyMs: a.busyMs + b.busyMs,
              maxOpen: Math.max(a.maxOpen, b.maxOpen),
              offered: a.offered + b.offered,
              achieved: a.achieved + b.achieved,
            }
          : a,
      );
    }
    this.buckets = merged;
    this.carried = this.carried < 0 ? -1 : Math.floor(this.carried / 2);
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;
