// The traffic recorder's arithmetic on a clock the test moves: which bucket an exchange lands in,
// how buckets widen, in-flight as busy time over bucket width, the most open at once (carried
// through buckets in which nothing happened), operations and bytes, offered and achieved, and
// what the last second looked like.
import { describe, expect, it } from 'vitest';
import type { ExchangeTraffic } from '../rig/client/exchangeObserver.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { TrafficRecorder } from '../rig/metrics/trafficRecorder.ts';

const ORIGIN = 10_000;

function recorder(options: { maxBuckets?: number; live?: boolean } = {}) {
  let now = ORIGIN;
  const r = new TrafficRecorder(ORIGIN, { ...options, now: () => now });
  const at = (t: number) => (now = ORIGIN + t);
  /** An exchange opened at `from` and ended at `to` (ms after the origin). */
  const exchange = (from: number, to: number, end: 'ok' | 'rpc_error' | 'failed' = 'ok', traffic?: ExchangeTraffic) => {
    at(from);
    r.opening();
    at(to);
    r.exchange('SendMessage', end, to - from, traffic ?? { operation: 'SendMessage', sent: 0, received: 0 });
  };
  return { r, at, exchange };
}

describe('TrafficRecorder over time', () => {
  it('puts an exchange in the bucket it ended in, every bucket up to the last one listed', () => {
    const { r, exchange } = recorder();
    exchange(10, 50);
    exchange(120, 150, 'rpc_error');
    exchange(330, 350, 'failed');
    const record = r.toRecord()!;
    expect(record.bucketMs).toBe(100);
    expect(record.points.map((p) => [p.t, p.completed, p.errors])).toEqual([
      [0, 1, 0],
      [100, 1, 1],
      [200, 0, 0],
      [300, 1, 1],
    ]);
    expect(record.totals).toEqual({ requests: 3, errors: 2, bytesSent: 0, bytesReceived: 0 });
    expect(record.points[0]).not.toHaveProperty('offered');
  });

  it('widens by doubling past maxBuckets, adding neighbours and keeping every count', () => {
    const { r, exchange } = recorder({ maxBuckets: 4 });
    exchange(0, 50);
    exchange(60, 150);
    exchange(200, 250);
    exchange(300, 350);
    exchange(420, 450); // index 4 at 100 ms: widens to 200 ms
    exchange(1_500, 1_550); // index 7 at 200 ms: widens to 400 ms
    const record = r.toRecord()!;
    expect(record.bucketMs).toBe(400);
    expect(record.points.map((p) => [p.t, p.completed])).toEqual([
      [0, 4],
      [400, 1],
      [800, 0],
      [1_200, 1],
    ]);
    // Busy time survives the widening: 50 + 90 + 50 + 50 + 30 + 50 ms in all.
    const busy = record.points.reduce((sum, p) => sum + p.inFlight * record.bucketMs, 0);
    expect(busy).toBeCloseTo(320, 6);
  });

  it('spreads an exchange over the buckets it was open in: in flight = busy time / width', () => {
    const { r, exchange } = recorder();
    exchange(50, 250);
    const points = r.toRecord()!.points;
    expect(points.map((p) => p.inFlight)).toEqual([0.5, 1, 0.5]);
    // Open through bucket 1 although nothing happened in it.
    expect(points.map((p) => p.inFlightMax)).toEqual([1, 1, 1]);
  });

  it('counts the most exchanges open at once, not the sum of those that touched the bucket', () => {
    const { r, at } = recorder();
    at(10);
    r.opening();
    at(20);
    r.opening();
    at(30);
    r.opening();
    at(40);
    r.exchange('GetTask', 'ok', 30);
    at(50);
    r.exchange('GetTask', 'ok', 30);
    at(60);
    r.opening(); // three open again, never four
    at(140);
    r.exchange('GetTask', 'ok', 110);
    at(150);
    r.exchange('GetTask', 'ok', 90);
    at(350);
    r.opening();
    r.exchange('GetTask', 'ok', 0);
    const points = r.toRecord()!.points;
    expect(points.map((p) => p.inFlightMax)).toEqual([3, 2, 0, 1]);
    expect(r.inFlight).toBe(0);
    // Open [10,40] [20,50] [30,140] [60,150] (ms): 30 + 30 + 70 + 40 in bucket 0, 40 + 50 in bucket 1.
    expect(points[0]!.inFlight).toBeCloseTo((30 + 30 + 70 + 40) / 100, 6);
    expect(points[1]!.inFlight).toBeCloseTo((40 + 50) / 100, 6);
  });

  it('records offered arrivals at their intended time and achieved iterations when they succeeded', () => {
    const { r, at } = recorder();
    r.loadStarted();
    for (const t of [0, 50, 100, 150, 200]) r.due(ORIGIN + t);
    r.succeeded(ORIGIN + 120);
    r.succeeded(ORIGIN + 260);
    r.loadEnded();
    at(300);
    const points = r.toRecord()!.points;
    expect(points.map((p) => [p.offered, p.achieved])).toEqual([
      [2, 0],
      [2, 1],
      [1, 1],
    ]);
  });

  it('is absent when the scenario sent nothing', () => {
    expect(recorder().r.toRecord()).toBeUndefined();
  });
});

describe('TrafficRecorder per operation', () => {
  it('keeps operations apart in report order, with outcomes, bytes and an HDR histogram of latency', () => {
    const { r, at } = recorder();
    const ex = (operation: string, end: 'ok' | 'rpc_error' | 'failed', ms: number, sent: number, received: number) => {
      r.opening();
      r.exchange('message/send', end, ms, { operation, sent, received });
    };
    at(10);
    ex('GetTask', 'ok', 2, 100, 300);
    ex('answer', 'ok', 4, 500, 200);
    ex('SendMessage', 'ok', 10, 700, 900);
    ex('answer', 'rpc_error', 6, 500, 150);
    ex('answer', 'failed', 8, 500, 0);
    ex('decision', 'ok', 3, 400, 250);
    ex('Custom', 'ok', 1, 1, 1);
    const record = r.toRecord()!;
    expect(record.operations.map((o) => o.operation)).toEqual([
      'SendMessage',
      'answer',
      'decision',
      'GetTask',
      'Custom',
    ]);
    const answer = record.operations.find((o) => o.operation === 'answer')!;
    expect(answer).toMatchObject({ count: 3, ok: 1, rpcErrors: 1, failed: 1, bytesSent: 1_500, bytesReceived: 350 });
    expect(answer.latency).toMatchObject({ unit: 'us', count: 3, min: 4_000, max: 8_000 });
    expect(answer.latency.p50).toBeCloseTo(6_000, -1); // HDR: 3 significant digits
    expect(LatencyHistogram.decode(answer.latency.hdr).count).toBe(3);
    expect(record.totals).toEqual({ requests: 7, errors: 2, bytesSent: 2_701, bytesReceived: 1_801 });
  });

  it('adds what a stream read after it was counted, up to when the record is made', () => {
    const { r, at } = recorder();
    const stream: ExchangeTraffic = { operation: 'SubscribeToTask', sent: 120, received: 80, stream: true };
    at(5);
    r.opening();
    r.exchange('tasks/resubscribe', 'ok', 1, stream);
    stream.received += 1_000; // events arrive after the headers
    expect(r.toRecord()!.operations[0]).toMatchObject({
      operation: 'SubscribeToTask',
      bytesSent: 120,
      bytesReceived: 1_080,
    });
    stream.received += 20;
    expect(r.toRecord()!.totals.bytesReceived).toBe(1_100);
  });
});

describe('TrafficRecorder live', () => {
  it('reports the last second: rate, errors, in flight now, p50/p95 of that second, offered while a load runs', () => {
    const { r, at } = recorder({ live: true });
    r.loadStarted();
    for (let i = 0; i < 20; i++) {
      at(i * 50);
      r.due(ORIGIN + i * 50);
      r.opening();
      r.exchange('SendMessage', i % 10 === 0 ? 'rpc_error' : 'ok', i < 19 ? 10 : 100);
    }
    at(100);
    r.opening(); // one still open
    at(1_000);
    const live = r.liveSecond()!;
    expect(live).toMatchObject({ ratePerS: 20, errorsPerS: 2, inFlight: 1, offeredPerS: 20, requests: 20, errors: 2 });
    expect(live.p50Ms).toBeCloseTo(10, 1);
    expect(live.p95Ms).toBeCloseTo(10, 1);
    // The next half second: the open exchange ends, slow; the window starts afresh.
    at(1_500);
    r.exchange('SendMessage', 'ok', 1_400);
    r.loadEnded();
    const next = r.liveSecond()!;
    expect(next).toMatchObject({ ratePerS: 2, errorsPerS: 0, inFlight: 0, requests: 21 });
    expect(next.p50Ms).toBeCloseTo(1_400, -1);
    expect(next).not.toHaveProperty('offeredPerS');
    // A quiet second says nothing.
    at(2_500);
    expect(r.liveSecond()).toBeUndefined();
  });
});
