// A scenario's exchanges by operation, as results.json `traffic.operations` and `totals` carry them
// (trafficRecorder.ts counts the rest): how each ended, its latencies, and its bytes, streams' read
// up to the moment the record is made.
import type { ExchangeEnd, ExchangeTraffic } from '../client/exchangeObserver.ts';
import type { ByteTally } from '../client/byteTally.ts';
import { LatencyHistogram } from './latencyHistogram.ts';
import type { OperationStats, TrafficRecord } from './trafficRecord.ts';

/** The order reports list operations in; others follow alphabetically. */
const OPERATION_ORDER = [
  'SendMessage',
  'answer',
  'decision',
  'GetTask',
  'SendStreamingMessage',
  'SubscribeToTask',
  'CancelTask',
  'ListTasks',
];

interface Operation {
  count: number;
  ok: number;
  rpcErrors: number;
  failed: number;
  sent: number;
  received: number;
  latency: LatencyHistogram;
  /** Streams whose received bytes may still grow, with what they had read when they were counted. */
  streams: Array<{ tally: ByteTally; counted: number }>;
}

export class OperationTraffic {
  private readonly operations = new Map<string, Operation>();

  /** No exchange counted yet. */
  get empty(): boolean {
    return this.operations.size === 0;
  }

  /** One exchange of operation `name` ended. */
  record(name: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void {
    const op = this.operation(name);
    op.count++;
    if (end === 'ok') op.ok++;
    else if (end === 'rpc_error') op.rpcErrors++;
    else op.failed++;
    op.latency.recordMs(latencyMs);
    if (traffic) {
      op.sent += traffic.sent;
      op.received += traffic.received;
      if (traffic.stream) op.streams.push({ tally: traffic, counted: traffic.received });
    }
  }

  /** Every operation in report order, and the totals over them (streams' bytes as read by now). */
  stats(): Pick<TrafficRecord, 'operations' | 'totals'> {
    const operations: OperationStats[] = [];
    const totals = { requests: 0, errors: 0, bytesSent: 0, bytesReceived: 0 };
    for (const name of [...this.operations.keys()].sort(byReportOrder)) {
      const op = this.operations.get(name)!;
      let received = op.received;
      for (const s of op.streams) received += s.tally.received - s.counted;
      operations.push({
        operation: name,
        count: op.count,
        ok: op.ok,
        rpcErrors: op.rpcErrors,
        failed: op.failed,
        bytesSent: op.sent,
        bytesReceived: received,
        latency: { ...op.latency.summary(), hdr: op.latency.encode() },
      });
      totals.requests += op.count;
      totals.errors += op.rpcErrors + op.failed;
      totals.bytesSent += op.sent;
      totals.bytesReceived += received;
    }
    return { operations, totals };
  }

  private operation(name: string): Operation {
    let op = this.operations.get(name);
    if (!op) {
      op = {
        count: 0,
        ok: 0,
        rpcErrors: 0,
        failed: 0,
        sent: 0,
        received: 0,
        latency: new LatencyHistogram(),
        streams: [],
      };
      this.operations.set(name, op);
    }
    return op;
  }
}

function byReportOrder(a: string, b: string): number {
  const ia = OPERATION_ORDER.indexOf(a);
  const ib = OPERATION_ORDER.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  return a < b ? -1 : a > b ? 1 : 0;
}
