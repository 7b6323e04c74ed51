// Hand-made runs for the terminal summary and summary.md tests: capacity as scenarios/capacity.ts
// records it, traffic records, and a run of every kind of scenario (passed, failed with a long
// reason, errored with a stack, skipped, hostile text from the agent).
import type { RunResult, ScenarioResult, SeriesPoint, TrafficRecord } from '../../rig/results/runResult.ts';
import { HOSTILE } from './hostileAgent.ts';
import { run, samples, scenario } from './runResultFixture.ts';

const RATES = [5, 10, 20, 40];

/** capacity as scenarios/capacity.ts records it (smoke: 5/s ×2 up to 40/s, 2 s steps), holding up to `heldUpTo`. */
export function capacity(heldUpTo: number): ScenarioResult {
  const run = RATES.filter((r) => r <= Math.max(heldUpTo * 2, RATES[0]!));
  const latencies: Record<string, number[]> = {};
  for (const rate of run)
    latencies[`round_trip{rate=${rate}}`] = samples(rate * 2, 2_000, rate > heldUpTo ? 3_000_000 : 30_000, rate);
  const base = scenario('capacity', {
    durationMs: 8_200,
    latencies,
    counters: { capacity_per_s: heldUpTo, slo_broken_at_per_s: run.find((r) => r > heldUpTo) ?? 0 },
  });
  const points: SeriesPoint[] = run.map((rate) => {
    const m = base.metrics[`round_trip{rate=${rate}}`]!;
    return {
      x: rate,
      y: m.p95 / 1000,
      p50_ms: m.p50 / 1000,
      p99_ms: m.p99 / 1000,
      achieved_per_s: rate,
      arrivals: rate * 2,
      errors: rate > heldUpTo ? 3 : 0,
      dropped: 0,
      late: 0,
      sustainable: rate <= heldUpTo,
    };
  });
  return {
    ...base,
    tags: ['load', 'latency', 'hitl'],
    params: { roundTrip: 'hitl', startRate: 5, growth: 2, maxRate: 40, stepMs: 2000, sloP95Ms: 1000 },
    records: { latencies: ['round_trip{rate}', 'resume_latency{rate}'], counters: {} },
    series: { round_trip_p95_ms_vs_rate_per_s: points },
  };
}

export function traffic(requests: number, errors: number, failed = 0): TrafficRecord {
  const latency = scenario('x', { latencies: { l: samples(50, 1000, 5000) } }).metrics.l!;
  return {
    bucketMs: 1000,
    operations: [
      {
        operation: 'SendMessage',
        count: requests,
        ok: requests - errors - failed,
        rpcErrors: errors,
        failed,
        bytesSent: requests * 500,
        bytesReceived: requests * 1500,
        latency,
      },
    ],
    totals: { requests, errors: errors + failed, bytesSent: requests * 500, bytesReceived: requests * 1500 },
    points: [],
  };
}

export const STACK =
  'Error: boom\n    at run (/home/user/project/scenarios/my-scenario.ts:42:7)\n' +
  '    at runOne (/repo/rig/engine/runScenarios.ts:100:3)';

export function fixtureRun(): RunResult {
  const r = run([
    {
      ...scenario('resume-latency', { durationMs: 6_400, latencies: { resume_latency: samples(150, 900, 4000) } }),
      traffic: traffic(3000, 0),
    },
    {
      ...scenario('cf4', { durationMs: 300, latencies: { resume_latency: samples(10, 1000, 6000) } }),
      traffic: traffic(1000, 7),
    },
    capacity(40),
    scenario('cf1', { durationMs: 100 }),
    scenario('crash-restart', {
      verdict: 'skipped',
      durationMs: 0,
      reason: (
        'needs a restartable agent (pass --restart-cmd with --target); ' +
        'the agent said <b>no</b> & `more` of it, at length, '
      ).repeat(3),
    }),
    scenario('a-scenario-with-a-very-long-name-indeed', {
      verdict: 'failed',
      durationMs: 1_234_567,
      latencies: { 'legit_round_trip{phase=during}': samples(30, 1000, 9000) },
      checks: [
        {
          name: `the agent answers ${HOSTILE}`,
          ok: false,
          detail: `it said ${HOSTILE} and then ${'more words '.repeat(30)}`,
        },
      ],
      reason: `the agent said ${HOSTILE}`,
    }),
    {
      ...scenario('my-scenario', { verdict: 'errored', reason: 'TypeError: x is not a function', durationMs: 50 }),
      stack: STACK,
      notes: ['pattern-backtracking not aimed: the live prompt has no <pattern>'],
    },
  ]);
  return {
    ...r,
    target: { ...r.target, agentName: `agent ${HOSTILE}`, agentVersion: '2.12.0+a2a-rig-embedded', generation: '1.0' },
    proxy: { backend: 'embedded', version: '2.12.0+a2a-rig-embedded' },
    thresholds: [
      { expression: 'resume_latency.p95<5', ok: false, actual: 7.1, detail: '7.10 ms (p95 of 150 samples), needs < 5' },
      { expression: 'checks.rate>=0.5', ok: true, actual: 0.8, detail: '0.8 (4 of 5 checks), needs >= 0.5' },
    ],
  };
}
