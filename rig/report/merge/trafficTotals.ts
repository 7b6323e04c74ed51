// The traffic of several scenarios (or runs) added up: requests, errors and bytes from their
// totals, and the errors split into refusals (the agent answered with an error, often provoked on
// purpose) and failures (no usable reply). One sum for the terminal, report.html and merge.
import type { ScenarioResult, TrafficRecord } from '../../results/runResult.ts';

export interface TrafficSum {
  requests: number;
  errors: number;
  bytesSent: number;
  bytesReceived: number;
  refused: number;
  failed: number;
}

export function sumTraffic(records: readonly TrafficRecord[]): TrafficSum {
  const sum: TrafficSum = { requests: 0, errors: 0, bytesSent: 0, bytesReceived: 0, refused: 0, failed: 0 };
  for (const t of records) {
    sum.requests += t.totals.requests;
    sum.errors += t.totals.errors;
    sum.bytesSent += t.totals.bytesSent;
    sum.bytesReceived += t.totals.bytesReceived;
    for (const o of t.operations) {
      sum.refused += o.rpcErrors;
      sum.failed += o.failed;
    }
  }
  return sum;
}

/** The recorded traffic of these scenarios (those that recorded none left out). */
export const trafficOf = (scenarios: readonly ScenarioResult[]): TrafficRecord[] =>
  scenarios.flatMap((s) => (s.traffic ? [s.traffic] : []));
