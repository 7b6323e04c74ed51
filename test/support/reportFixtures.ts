// Hand-made results for report.html's tests, in the shapes of rig/results/runResult.ts that issue 15
// added (traffic per operation and over time, log lines, an errored scenario's stack): a capacity
// search whose steps show in the latency timeline (round_trip{rate=N}), its traffic (offered vs
// achieved), its curve (p50/p95/p99, achieved rate, sustainable); a fault scenario; an errored one.
// Latencies go through the real histogram and timeline; nothing but the data is made up.
import { LatencyTimeline } from '../../rig/metrics/latencyTimeline.ts';
import type {
  LogLine,
  OperationStats,
  RunResult,
  ScenarioResult,
  SeriesPoint,
  TrafficPoint,
  TrafficRecord,
} from '../../rig/results/runResult.ts';
import { metricOf, run, samples, scenario } from './runResultFixture.ts';

export interface OperationSpec {
  operation: string;
  /** Latency samples in µs: their count is the operation's count. */
  latencies: number[];
  rpcErrors?: number;
  failed?: number;
  bytesSent?: number;
  bytesReceived?: number;
}

export function operation(spec: OperationSpec): OperationStats {
  const count = spec.latencies.length;
  const rpcErrors = spec.rpcErrors ?? 0;
  const failed = spec.failed ?? 0;
  return {
    operation: spec.operation,
    count,
    ok: count - rpcErrors - failed,
    rpcErrors,
    failed,
    bytesSent: spec.bytesSent ?? count * 420,
    bytesReceived: spec.bytesReceived ?? count * 910,
    latency: metricOf(spec.latencies),
  };
}

/** A traffic record from its operations and points; totals add up from the operations. */
export function traffic(operations: OperationStats[], points: TrafficPoint[], bucketMs: number): TrafficRecord {
  return {
    bucketMs,
    operations,
    totals: {
      requests: operations.reduce((a, o) => a + o.count, 0),
      errors: operations.reduce((a, o) => a + o.rpcErrors + o.failed, 0),
      bytesSent: operations.reduce((a, o) => a + o.bytesSent, 0),
      bytesReceived: operations.reduce((a, o) => a + o.bytesReceived, 0),
    },
    points,
  };
}

export interface CapacitySpec {
  rates?: number[];
  /** The first rate whose step breaks the SLO (its p95 shoots up, some round trips fail); none by default. */
  breakAt?: number;
  maxRate?: number;
  stepMs?: number;
  sloP95Ms?: number;
}

/** A capacity search that breaks the SLO at 80/s, with room to 160/s: the report tests' usual run. */
export const BROKEN_AT_80: CapacitySpec = { rates: [5, 10, 20, 40, 80], breakAt: 80, maxRate: 160 };

/**
 * capacity as scenarios/capacity.ts writes it: per step a `round_trip{rate}` and `resume_latency{rate}`
 * metric and timeline, a curve point, offered and achieved iterations over time, and a log line.
 */
export function capacityScenario(spec: CapacitySpec = {}): ScenarioResult {
  const rates = spec.rates ?? [5, 10, 20, 40];
  const stepMs = spec.stepMs ?? 2000;
  const sloP95Ms = spec.sloP95Ms ?? 1000;
  const bucketMs = 100;
  const timeline = new LatencyTimeline(0);
  const metrics: ScenarioResult['metrics'] = {};
  const curve: SeriesPoint[] = [];
  const log: LogLine[] = [];
  const points: TrafficPoint[] = [];
  const all: number[] = [];
  const answers: number[] = [];
  const warmMs = 500;
  rates.forEach((rate, step) => {
    const t0 = warmMs + step * stepMs;
    const broken = spec.breakAt !== undefined && rate >= spec.breakAt;
    const n = Math.round((rate * stepMs) / 1000);
    const slow = broken ? 1200_000 : 4_000 + rate * 150;
    const roundTrip = samples(n, slow / 2, slow * 2.5, rate);
    const resume = samples(n, slow / 6, slow / 1.5, rate + 1);
    roundTrip.forEach((us, i) => timeline.record(`round_trip{rate=${rate}}`, us, t0 + (stepMs * i) / n));
    resume.forEach((us, i) => timeline.record(`resume_latency{rate=${rate}}`, us, t0 + (stepMs * i) / n));
    const rt = (metrics[`round_trip{rate=${rate}}`] = metricOf(roundTrip));
    metrics[`resume_latency{rate=${rate}}`] = metricOf(resume);
    const failed = broken ? Math.round(n * 0.2) : 0;
    curve.push({
      x: rate,
      y: rt.p95 / 1000,
      p50_ms: rt.p50 / 1000,
      p99_ms: rt.p99 / 1000,
      achieved_per_s: broken ? rate * 0.7 : rate,
      arrivals: n,
      errors: failed,
      dropped: 0,
      late: 0,
      sustainable: !broken,
    });
    log.push({
      t: t0 + stepMs,
      line:
        `${rate}/s: ${n - failed}/${n} ok, p95 ${(rt.p95 / 1000).toFixed(0)} ms` + (broken ? ' — breaks the SLO' : ''),
    });
    for (let b = 0; b < stepMs / bucketMs; b++) {
      const offered = (rate * bucketMs) / 1000;
      const achieved = broken ? offered * 0.7 : offered;
      // Three exchanges per round trip: SendMessage, answer, GetTask.
      points.push({
        t: t0 + b * bucketMs,
        completed: achieved * 3,
        errors: broken ? offered * 0.6 : 0,
        inFlight: broken ? rate * 0.9 : rate * 0.02,
        inFlightMax: broken ? rate : Math.ceil(rate * 0.05),
        offered,
        achieved,
      });
    }
    all.push(...roundTrip);
    answers.push(...resume);
    if (broken) return;
  });
  const durationMs = warmMs + rates.length * stepMs + 200;
  const ops = [
    operation({ operation: 'SendMessage', latencies: all.map((us) => us / 3) }),
    operation({ operation: 'answer', latencies: answers, rpcErrors: spec.breakAt ? 3 : 0 }),
    operation({ operation: 'GetTask', latencies: all.map((us) => us / 5), failed: spec.breakAt ? 12 : 0 }),
    operation({ operation: 'SubscribeToTask', latencies: samples(4, 1000, 5000, 9) }),
  ];
  return {
    ...scenario('capacity', { durationMs }),
    description: 'steps the rate of whole HITL round trips up until the SLO breaks',
    tags: ['load', 'latency', 'hitl'],
    params: {
      roundTrip: 'hitl',
      startRate: rates[0]!,
      growth: 2,
      maxRate: spec.maxRate ?? rates[rates.length - 1]!,
      stepMs,
      sloP95Ms,
      sloMaxErrorPct: 0.1,
      sloMaxDroppedPct: 0.1,
    },
    metrics,
    timeline: timeline.toRecord(),
    series: { round_trip_p95_ms_vs_rate_per_s: curve },
    traffic: traffic(ops, points, bucketMs),
    log,
  };
}

/** resume-latency with a latency toxic in place half-way, and its traffic (closed model: no offered rate). */
export function faultScenario(name = 'resume-latency'): ScenarioResult {
  const timeline = new LatencyTimeline(0);
  const fast = samples(60, 800, 4000, 3);
  const slow = samples(60, 100_000, 110_000, 4);
  fast.forEach((us, i) => timeline.record('resume_latency', us, 100 + i * 40));
  slow.forEach((us, i) => timeline.record('resume_latency_with_latency_toxic', us, 2700 + i * 60));
  const points: TrafficPoint[] = Array.from({ length: 66 }, (_, i) => ({
    t: i * 100,
    completed: i < 25 ? 6 : i < 27 ? 0 : 3,
    errors: i === 40 ? 1 : 0,
    inFlight: i < 25 ? 0.4 : 1,
    inFlightMax: i < 25 ? 2 : 1,
  }));
  return {
    ...scenario(name, { durationMs: 6600 }),
    metrics: { resume_latency: metricOf(fast), resume_latency_with_latency_toxic: metricOf(slow) },
    timeline: timeline.toRecord(),
    faultEvents: [
      { t: 2600, action: 'add', target: 'latency_downstream', detail: 'latency downstream latency=100' },
      { t: 6400, action: 'remove', target: 'latency_downstream' },
    ],
    traffic: traffic(
      [
        operation({ operation: 'SendMessage', latencies: [...fast, ...slow].map((us) => us / 2) }),
        operation({ operation: 'answer', latencies: [...fast, ...slow], rpcErrors: 1 }),
      ],
      points,
      100,
    ),
    log: [{ t: 2600, line: 'toxic latency=100 in place' }],
  };
}

export function erroredScenario(name = 'disconnect-replay'): ScenarioResult {
  return {
    ...scenario(name, {
      verdict: 'errored',
      reason: 'TypeError: cannot read properties of undefined (reading "taskId")',
      durationMs: 800,
    }),
    checks: [],
    stack:
      'TypeError: cannot read properties of undefined (reading "taskId")\n' +
      '    at run (scenarios/disconnectReplay.ts:48:22)\n' +
      '    at runScenario (rig/engine/runScenarios.ts:210:5)',
    log: [{ t: 12, line: 'opening 50 streams' }],
  };
}

/** A run with all of it, and one scenario from before traffic was recorded (no traffic, log or stack). */
export function richRun(spec: CapacitySpec = {}): RunResult {
  const legacy = scenario('legacy-scenario', { latencies: { probe_latency: samples(10, 1000, 9000, 5) } });
  return run([capacityScenario(spec), faultScenario(), erroredScenario(), legacy], 'fixture-rich');
}
