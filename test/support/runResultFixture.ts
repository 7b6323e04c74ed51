// Hand-made results@1 runs for the report tests: latencies given as raw microsecond samples go
// through the same histogram and encoding a real run uses, so nothing is hard-coded but the data.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LatencyHistogram } from '../../rig/metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../../rig/metrics/latencyTimeline.ts';
import type { RecordedMeasures } from '../../rig/results/metricNames.ts';
import {
  RESULTS_SCHEMA,
  overallVerdict,
  type CheckResult,
  type MetricResult,
  type RunResult,
  type ScenarioResult,
  type Verdict,
} from '../../rig/results/runResult.ts';

export interface ScenarioSpec {
  verdict?: Verdict;
  reason?: string;
  durationMs?: number;
  /** Raw samples in microseconds per metric. */
  latencies?: Record<string, number[]>;
  counters?: Record<string, number>;
  checks?: CheckResult[];
  /** The scenario's declaration of what it records (compare reads counter kinds from it). */
  records?: RecordedMeasures;
}

export function histogramOf(samplesUs: number[]): LatencyHistogram {
  const h = new LatencyHistogram();
  for (const us of samplesUs) h.recordMicros(us);
  return h;
}

export function metricOf(samplesUs: number[]): MetricResult {
  const h = histogramOf(samplesUs);
  return { ...h.summary(), hdr: h.encode() };
}

export function scenario(name: string, spec: ScenarioSpec = {}): ScenarioResult {
  const metrics: Record<string, MetricResult> = {};
  for (const [metric, samples] of Object.entries(spec.latencies ?? {})) metrics[metric] = metricOf(samples);
  return {
    name,
    description: `${name} (fixture)`,
    tags: ['fixture'],
    verdict: spec.verdict ?? 'passed',
    ...(spec.reason ? { reason: spec.reason } : {}),
    durationMs: spec.durationMs ?? 1000,
    params: {},
    checks: spec.checks ?? [{ name: `${name} holds`, ok: (spec.verdict ?? 'passed') !== 'failed' }],
    metrics,
    counters: spec.counters ?? {},
    ...(spec.records ? { records: spec.records } : {}),
  };
}

export function run(scenarios: ScenarioResult[], runId = 'fixture-run'): RunResult {
  return {
    schema: RESULTS_SCHEMA,
    runId,
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:10.000Z',
    durationMs: 10_000,
    profile: 'smoke',
    rig: { version: '0.1.0', node: 'v20', platform: 'linux-x64', cpus: 2 },
    target: { kind: 'embedded', url: 'http://127.0.0.1:1', agentFaults: [] },
    proxy: null,
    verdict: overallVerdict(scenarios),
    scenarios,
  };
}

/** Runs as mergeRuns takes them, each read from a results.json of its own. */
export function mergeInputs(...runs: RunResult[]): { run: RunResult; path: string }[] {
  return runs.map((r, i) => ({ run: r, path: `/results/${i}/results.json` }));
}

/** Deterministic pseudo-random samples (LCG): `n` values in [lowUs, highUs), skewed toward low. */
export function samples(n: number, lowUs: number, highUs: number, seed = 1): number[] {
  let state = seed >>> 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const u = state / 2 ** 32;
    out.push(Math.round(lowUs + (highUs - lowUs) * u * u));
  }
  return out;
}

/**
 * A DoS scenario's result as dos-engine writes it (issue 14): an attack window (attack-start /
 * attack-stop fault events, target = the attack's name), the legitimate traffic per phase
 * (`legit_round_trip{phase}`, `legit_resume{phase}`: slower during the attack), each attack's
 * refusal latency and outcome tally, and the agent's RSS / CPU / connections over time.
 */
export function dosScenario(name = 'dos-payloads', spec: { attack?: string; verdict?: Verdict } = {}): ScenarioResult {
  const attack = spec.attack ?? 'oversized-answer';
  const timeline = new LatencyTimeline(0);
  const phases = { before: [0, 4000, 8], during: [4000, 8000, 24], after: [8000, 12000, 9] } as const;
  const latencies: Record<string, number[]> = {};
  for (const [phase, [t0, t1, meanMs]] of Object.entries(phases)) {
    const roundTrip = samples(200, meanMs * 500, meanMs * 2000, t0 + 1);
    const resume = samples(200, meanMs * 250, meanMs * 1000, t0 + 2);
    roundTrip.forEach((us, i) => timeline.record('legit_round_trip', us, t0 + ((t1 - t0) * i) / roundTrip.length));
    latencies[`legit_round_trip{phase=${phase}}`] = roundTrip;
    latencies[`legit_resume{phase=${phase}}`] = resume;
  }
  latencies[`attack_refusal{attack=${attack}}`] = samples(300, 300, 4000, 7);
  const base = scenario(name, {
    verdict: spec.verdict ?? 'passed',
    durationMs: 12_000,
    latencies,
    counters: {
      [`attack_outcomes{attack=${attack},outcome=refused}`]: 290,
      [`attack_outcomes{attack=${attack},outcome=cut}`]: 7,
      [`attack_outcomes{attack=${attack},outcome=server-error}`]: 3,
    },
  });
  const seconds = Array.from({ length: 13 }, (_, x) => x);
  const attacking = (x: number) => x >= 4 && x < 8;
  return {
    ...base,
    tags: ['dos', 'hostile'],
    timeline: timeline.toRecord(),
    faultEvents: [
      { t: 4000, action: 'attack-start', target: attack, detail: 'rate=75/s maxRequests=300 bytes=2097152' },
      { t: 8000, action: 'attack-stop', target: attack },
    ],
    series: {
      agent_rss_mb_vs_s: seconds.map((x) => ({ x, y: attacking(x) ? 140 + x : 96 })),
      agent_cpu_pct_vs_s: seconds.map((x) => ({ x, y: attacking(x) ? 85 : 12 })),
      agent_connections_vs_s: seconds.map((x) => ({ x, y: attacking(x) ? 40 : 4 })),
    },
  };
}

/** Writes `result` as DIR/NAME/results.json, as a run leaves it; returns DIR/NAME. */
export function writeRunDir(dir: string, name: string, result: RunResult): string {
  const runDir = join(dir, name);
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, 'results.json'), JSON.stringify(result));
  return runDir;
}
