// `--metrics-port PORT` for run/conform: the rig's live Prometheus metrics (rig/metrics/rigMetrics.ts)
// served on 127.0.0.1:PORT/metrics from before the first scenario until the results are written,
// fed as a run observer (rig/results/runObserver.ts).
import { UserError } from '../protocol/userError.ts';
import type { RigMetrics } from '../metrics/rigMetrics.ts';
import type { RunObserver } from '../results/runObserver.ts';

/** `--metrics-port`'s validator (rig/runOptions.ts's table). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535)
    throw new UserError(`--metrics-port must be a TCP port 0..65535 (0 picks a free one), got "${value}"`);
  return port;
}

/**
 * What the live metrics hear of a run: scenarios, their latencies and faults, the exchanges and
 * answers of clients through the fault proxy, and open-model loads. Log lines and the once-a-second
 * traffic figures are the display's, not theirs.
 */
export function liveMetricsObserver(metrics: RigMetrics): RunObserver {
  return {
    onScenarioStart: (at) => metrics.scenarioStarted(at.scenario),
    onScenarioEnd: (end) => metrics.scenarioEnded(end.result),
    onFaultEvent: (event) => metrics.faultEvent(event.action),
    onLatency: (metric, us) => metrics.latency(metric, us),
    onExchange: (method, end, latencyMs) => metrics.exchange(method, end, latencyMs),
    onAnswer: (outcome) => metrics.answer(outcome),
    onArrivalRate: (perSecond) => metrics.setArrivalRate(perSecond),
    onIterationStart: () => metrics.iterationStarted(),
    onIterationEnd: (outcome) => metrics.iterationEnded(outcome),
  };
}

export interface LiveMetrics {
  /** Absent when no port was given. */
  observer: RunObserver | undefined;
  close(): Promise<void>;
}

/** Starts serving when a port was given; otherwise does nothing at all. */
export async function startLiveMetrics(
  port: number | undefined,
  announce: (line: string) => void,
): Promise<LiveMetrics> {
  if (port === undefined) return { observer: undefined, close: async () => {} };
  // Loaded only here: prom-client (and the OpenTelemetry API it loads) is a noticeable part of the
  // rig's load time, which a run without --metrics-port would pay for nothing.
  const [{ RigMetrics }, { serveMetrics }] = await Promise.all([
    import('../metrics/rigMetrics.ts'),
    import('../metrics/metricsServer.ts'),
  ]);
  const metrics = new RigMetrics();
  const server = await serveMetrics(metrics.registry, port);
  announce(`live metrics: ${server.url}`);
  return { observer: liveMetricsObserver(metrics), close: () => server.close() };
}
