// The results of one schedule run in parts (worker threads, each with its share of the arrivals:
// shardedArrivals.ts) as one result, exactly as `merge` adds shards (rig/report/merge/mergeMetrics.ts):
// counters summed, histograms added bucket by bucket (a merged p99 is the p99 of all samples), the
// schedule truths joined (scheduleTruth.ts: per step exact, the event-loop delay the worst thread's).
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import type { OpenModelResult } from './openModelExecutor.ts';
import { mergeScheduleTruth, type ScheduleTruth } from '../metrics/scheduleTruth.ts';

/** A result with nothing counted: where a merge starts, or a run that stopped before its first arrival. */
export function emptyOpenModelResult(
  schedule: ScheduleTruth,
  latency = new LatencyHistogram(),
  serviceTime = new LatencyHistogram(),
): OpenModelResult {
  return {
    ...{ scheduled: 0, started: 0, succeeded: 0, failed: 0, failures: {}, firstFailure: undefined },
    ...{ dropped: 0, late: 0, unfinished: 0, maxStartLagMs: 0, peakInFlight: 0, elapsedMs: 0, aborted: false },
    schedule,
    latency,
    serviceTime,
  };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [kind, n] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + n;
}

/**
 * One result for all parts. Times: maxStartLagMs and elapsedMs are the largest of the parts (they
 * ran side by side). peakInFlight is the parts' peaks summed: an upper bound, as the parts may have
 * peaked at different moments. firstFailure is the first part's that has one.
 */
export function mergeOpenModelResults(results: readonly OpenModelResult[]): OpenModelResult {
  if (results.length === 0) throw new RangeError('mergeOpenModelResults needs at least one result');
  const merged = emptyOpenModelResult(mergeScheduleTruth(results.map((r) => r.schedule)));
  for (const r of results) {
    merged.scheduled += r.scheduled;
    merged.started += r.started;
    merged.succeeded += r.succeeded;
    merged.failed += r.failed;
    addCounts(merged.failures, r.failures);
    merged.firstFailure ??= r.firstFailure;
    merged.dropped += r.dropped;
    merged.late += r.late;
    merged.unfinished += r.unfinished;
    merged.maxStartLagMs = Math.max(merged.maxStartLagMs, r.maxStartLagMs);
    merged.peakInFlight += r.peakInFlight;
    merged.latency.add(r.latency);
    merged.serviceTime.add(r.serviceTime);
    merged.elapsedMs = Math.max(merged.elapsedMs, r.elapsedMs);
    merged.aborted ||= r.aborted;
  }
  return merged;
}
