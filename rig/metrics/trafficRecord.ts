// The shape of a scenario's recorded traffic, as results.json carries it (`traffic`, see
// rig/results/runResult.ts) and as the live progress events report its last second. Types only:
// the recorder (trafficRecorder.ts) fills them, the reports read them.
import type { LatencySummary } from './latencyHistogram.ts';

/**
 * One A2A operation as the rig's client called it: `SendMessage`, `SendStreamingMessage`, `GetTask`,
 * `SubscribeToTask`, `CancelTask`, `ListTasks`, … (v1.0 names, whatever the wire's generation), and
 * `answer` (a SendMessage carrying a hitl-prompt/v1 response) and `decision` (an acceptance-criteria
 * verdict), which the reports keep apart because they are what a human's answer costs.
 */
export interface OperationStats {
  operation: string;
  /** Exchanges that ended: ok + rpcErrors + failed. */
  count: number;
  ok: number;
  /** A JSON-RPC error or an HTTP error status: the agent answered, and refused. */
  rpcErrors: number;
  /** No usable reply: a transport error, a timeout, a reply that could not be read. */
  failed: number;
  /** Request bytes the rig wrote (body and headers as sent), response bytes it read. */
  bytesSent: number;
  bytesReceived: number;
  /** Exchange latency (a stream: until its headers), encoded like every latency metric. */
  latency: LatencySummary & { hdr: string };
}

/**
 * One bucket of the scenario's traffic over time (the same width for every bucket of a scenario).
 * Rates are per second over the bucket; `inFlight` is the mean number of exchanges open during it
 * (busy time / bucket width, so it merges exactly), `inFlightMax` the most open at once.
 */
export interface TrafficPoint {
  /** Start of the bucket, ms since the scenario started. */
  t: number;
  /** Exchanges that ended in the bucket, and how many of them were rpc errors or failed. */
  completed: number;
  errors: number;
  inFlight: number;
  inFlightMax: number;
  /** Open-model loads only: iterations the schedule offered in the bucket, and iterations that completed. */
  offered?: number;
  achieved?: number;
}

export interface TrafficRecord {
  /** Width of every bucket in ms; at most 120 buckets, widened by doubling like the latency timeline. */
  bucketMs: number;
  operations: OperationStats[];
  totals: { requests: number; errors: number; bytesSent: number; bytesReceived: number };
  points: TrafficPoint[];
}

/** The scenario's own traffic (results.json `traffic`) over the last second, and so far. */
export interface LiveTraffic {
  /** Exchanges that ended in the last second, and of them rpc errors or failed. */
  ratePerS: number;
  errorsPerS: number;
  /** Exchanges open now. */
  inFlight: number;
  /** Latency of the exchanges that ended in the last second; absent when none did. */
  p50Ms?: number;
  p95Ms?: number;
  /** Open-model load running now: its offered arrival rate. */
  offeredPerS?: number;
  /** Since the scenario started. */
  requests: number;
  errors: number;
}
