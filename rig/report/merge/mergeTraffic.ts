// The traffic of several runs of one scenario added (mergeRuns.ts): operations by name, counts and
// bytes summed, latency histograms added exactly, totals summed, and the points re-cut to the
// widest bucket width and added (the most in flight at once as an upper bound).
import { sumTraffic } from './trafficTotals.ts';
import { addMetrics } from './mergeMetrics.ts';
import type {
  MetricResult,
  OperationStats,
  ScenarioResult,
  TrafficPoint,
  TrafficRecord,
} from '../../results/runResult.ts';

/**
 * One run's points re-cut to `bucketMs` (a multiple of its own width): sums added, busy time kept,
 * the most in flight the most of the buckets joined.
 */
function recut(
  record: TrafficRecord,
  bucketMs: number,
  into: Map<number, TrafficPoint>,
  each: Map<number, TrafficPoint>,
): void {
  each.clear();
  for (const p of record.points) {
    const t = Math.floor(p.t / bucketMs) * bucketMs;
    const busy = p.inFlight * record.bucketMs;
    const seen = each.get(t);
    if (!seen) each.set(t, { ...p, t, inFlight: busy });
    else {
      seen.completed += p.completed;
      seen.errors += p.errors;
      seen.inFlight += busy;
      seen.inFlightMax = Math.max(seen.inFlightMax, p.inFlightMax);
      if (p.offered !== undefined) seen.offered = (seen.offered ?? 0) + p.offered;
      if (p.achieved !== undefined) seen.achieved = (seen.achieved ?? 0) + p.achieved;
    }
  }
  for (const [t, p] of each) {
    const sum = into.get(t);
    if (!sum) into.set(t, p);
    else {
      sum.completed += p.completed;
      sum.errors += p.errors;
      sum.inFlight += p.inFlight;
      // An upper bound: each run's most at once, added, though their peaks need not have coincided.
      sum.inFlightMax += p.inFlightMax;
      if (p.offered !== undefined) sum.offered = (sum.offered ?? 0) + p.offered;
      if (p.achieved !== undefined) sum.achieved = (sum.achieved ?? 0) + p.achieved;
    }
  }
}

/** The parts' operations added up by name, in the order first seen, their latencies added too. */
function mergeOperations(holders: ScenarioResult[], label: (s: ScenarioResult) => string): OperationStats[] {
  const order: string[] = [];
  const ops = new Map<string, Omit<OperationStats, 'latency'>>();
  const latencies: Array<{ name: string; metric: MetricResult; what: string }> = [];
  for (const part of holders) {
    for (const op of part.traffic!.operations) {
      const seen = ops.get(op.operation);
      if (!seen) {
        order.push(op.operation);
        ops.set(op.operation, {
          operation: op.operation,
          count: op.count,
          ok: op.ok,
          rpcErrors: op.rpcErrors,
          failed: op.failed,
          bytesSent: op.bytesSent,
          bytesReceived: op.bytesReceived,
        });
      } else {
        seen.count += op.count;
        seen.ok += op.ok;
        seen.rpcErrors += op.rpcErrors;
        seen.failed += op.failed;
        seen.bytesSent += op.bytesSent;
        seen.bytesReceived += op.bytesReceived;
      }
      latencies.push({
        name: op.operation,
        metric: op.latency,
        what: `${part.name}/traffic ${op.operation} of ${label(part)}`,
      });
    }
  }
  const added = addMetrics(latencies);
  return order.map((name) => ({ ...ops.get(name)!, latency: added.get(name)! }));
}

/** The parts' points over time, recut to the widest bucket and added. */
function mergePoints(holders: ScenarioResult[], bucketMs: number): TrafficPoint[] {
  const sums = new Map<number, TrafficPoint>();
  const scratch = new Map<number, TrafficPoint>();
  for (const part of holders) recut(part.traffic!, bucketMs, sums, scratch);
  const load = holders.some((p) => p.traffic!.points.some((q) => q.offered !== undefined));
  const last = Math.max(-1, ...sums.keys());
  const points: TrafficPoint[] = [];
  for (let t = 0; t <= last; t += bucketMs) {
    const p = sums.get(t);
    const point: TrafficPoint = {
      t,
      completed: p?.completed ?? 0,
      errors: p?.errors ?? 0,
      inFlight: Math.round(((p?.inFlight ?? 0) / bucketMs) * 1000) / 1000,
      inFlightMax: p?.inFlightMax ?? 0,
    };
    if (load) {
      point.offered = p?.offered ?? 0;
      point.achieved = p?.achieved ?? 0;
    }
    points.push(point);
  }
  return points;
}

export function mergeTraffic(parts: ScenarioResult[], label: (s: ScenarioResult) => string): TrafficRecord | undefined {
  const holders = parts.filter((p) => p.traffic);
  if (holders.length === 0) return undefined;
  if (holders.length === 1) return holders[0]!.traffic;
  const operations = mergeOperations(holders, label);
  const { requests, errors, bytesSent, bytesReceived } = sumTraffic(holders.map((p) => p.traffic!));
  const totals = { requests, errors, bytesSent, bytesReceived };
  // Widths are 100 ms × 2^k, so the narrower nest in the widest.
  const bucketMs = Math.max(...holders.map((p) => p.traffic!.bucketMs));
  return { bucketMs, operations, totals, points: mergePoints(holders, bucketMs) };
}
