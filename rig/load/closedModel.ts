// The closed model: a fixed number of keep-alive connections, each sending its next request as soon
// as the last one was answered, for the raw throughput of one agent operation. autocannon
// (programmatic API) drives it; its results are folded into our HDR histogram.
//
// What is folded, and how: autocannon emits `response` for every response with the time from
// writing the request to the end of the response, in float milliseconds from process.hrtime. Each
// of those is recorded in a LatencyHistogram in microseconds (3 significant digits). autocannon's
// own latency histogram is not used: it records whole milliseconds (recordValue truncates), which
// flattens a loopback distribution into 0, 1 and 2 ms. Its counters are kept beside ours so the two
// can be compared (`folded` must equal autocannon's completed requests). Closed-model latencies are
// service times: a stalled server delays only the few requests in flight, so use them for
// throughput, and the open model (openModelExecutor.ts) for latency under a given arrival rate.
//
// autocannon's own `workers` option is not passed through from `--workers`: in that mode its
// workers send the main thread only their results and whole-millisecond histograms (no `response`
// event, so nothing to fold into our microsecond histogram or to time the run's end with), every
// function option (`onResponse`, hence `classify`) must be a file path a worker can require, it
// floors `amount` per worker (amount 10 on 3 workers sends 9), and its stop() clears the results it
// is waiting for, so the run's callback never comes (its lib/manager.js, autocannon 9.0.0).
import autocannon from 'autocannon';
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';

export type ClosedModelRequest = autocannon.Request;

export interface ClosedModelOptions {
  /** Origin of the target (each request gives its path). */
  url: string;
  connections: number;
  /** Run this long… */
  durationSeconds?: number;
  /** …or until this many responses (autocannon's `amount`; takes precedence). */
  amount?: number;
  /** The request sequence each connection loops over. */
  requests: ClosedModelRequest[];
  /** Per request (default 10). */
  timeoutSeconds?: number;
  /** Hard bound on the whole run (default: duration + timeout + 5 s, or 60 s with `amount`). */
  maxSeconds?: number;
  /** Names each response's outcome from its status and body; default "2xx", "4xx"... */
  classify?: (status: number, body: string) => string;
  signal?: AbortSignal;
  /** Where to fold latencies (default a new histogram). */
  latency?: LatencyHistogram;
}

export interface ClosedModelResult {
  /** Responses folded into `latency`. */
  folded: number;
  /** What autocannon counted as completed: equals `folded`. */
  autocannonCompleted: number;
  /** Requests autocannon wrote (completed or not). */
  sent: number;
  /** Responses by outcome (see `classify`). */
  outcomes: Record<string, number>;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Every response, µs. */
  latency: LatencyHistogram;
  /** From autocannon's start to the last response. */
  elapsedMs: number;
  /** folded / elapsed seconds. */
  perSecond: number;
  /** autocannon's own (whole-millisecond) percentiles, for comparison. */
  autocannonLatencyMs: { p50: number; p99: number; max: number };
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export async function runClosedModel(options: ClosedModelOptions): Promise<ClosedModelResult> {
  if (!(options.connections >= 1)) throw new RangeError(`connections must be ≥ 1, got ${options.connections}`);
  if (options.amount === undefined && options.durationSeconds === undefined)
    throw new RangeError('give durationSeconds or amount: a closed-model run must be bounded');
  if (options.requests.length === 0) throw new RangeError('give at least one request');
  const timeoutSeconds = options.timeoutSeconds ?? 10;
  const maxSeconds =
    options.maxSeconds ?? (options.amount !== undefined ? 60 : options.durationSeconds! + timeoutSeconds + 5);
  const latency = options.latency ?? new LatencyHistogram();
  const outcomes: Record<string, number> = {};
  const classify = options.classify ?? ((status: number) => statusClass(status));
  const count = (outcome: string) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
  // Bodies reach onResponse; without `classify`, only the status is needed, from the response event.
  const requests = options.classify
    ? options.requests.map((request) => {
        const own = request.onResponse;
        return {
          ...request,
          onResponse: (status: number, body: string, context: object, headers: ClosedModelRequest['headers']) => {
            count(classify(status, body));
            if (typeof own === 'function') own(status, body, context, headers);
          },
        };
      })
    : options.requests;

  let folded = 0;
  let started = 0;
  // autocannon reports only at its next once-a-second tick: time the run to its last response.
  let lastResponseAt = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationSeconds }),
        requests,
        timeout: timeoutSeconds,
        // autocannon notices the end of a run at its next sample tick (1 s by default). Its
        // per-sample request counts are not used here, so tick often and end promptly.
        sampleInt: 100,
      },
      (err, res) => {
        clearTimeout(bound);
        options.signal?.removeEventListener('abort', stop);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve(res);
      },
    );
    const stop = () => instance.stop();
    const bound = setTimeout(stop, maxSeconds * 1000);
    options.signal?.addEventListener('abort', stop, { once: true });
    instance.on('start', () => (started = performance.now()));
    instance.on('response', (_client, status, _bytes, responseTimeMs) => {
      folded++;
      lastResponseAt = performance.now();
      latency.recordMs(responseTimeMs, lastResponseAt);
      if (!options.classify) count(statusClass(status));
    });
  });
  const elapsedMs = folded > 0 ? lastResponseAt - started : 0;
  return {
    folded,
    autocannonCompleted: result.requests.total,
    sent: result.requests.sent,
    outcomes,
    errors: result.errors,
    timeouts: result.timeouts,
    latency,
    elapsedMs,
    perSecond: elapsedMs > 0 ? (folded * 1000) / elapsedMs : 0,
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
  };
}
