// Hand-made results@1 runs for the report tests: latencies given as raw microsecond samples go
// through the same histogram and encoding a real run uses, so nothing is hard-coded but the data.
import { LatencyHistogram } from '../../rig/metrics/latencyHistogram.ts';
import type { RecordedMeasures } from '../../rig/report/metricNames.ts';
import { RESULTS_SCHEMA, overallVerdict, type CheckResult, type MetricResult, type RunResult, type ScenarioResult, type Verdict } from '../../rig/report/runResult.ts';

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
