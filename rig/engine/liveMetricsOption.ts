// `--metrics-port PORT` for run/conform: the rig's live Prometheus metrics (rig/metrics/rigMetrics.ts)
// served on 127.0.0.1:PORT/metrics from before the first scenario until the results are written.
import { Option, type Command } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { RigMetrics } from '../metrics/rigMetrics.ts';
import { serveMetrics, type MetricsServer } from '../metrics/metricsServer.ts';
import type { ScenarioResult } from '../results/runResult.ts';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535) throw new UserError(`--metrics-port must be a TCP port 0..65535 (0 picks a free one), got "${value}"`);
  return port;
}

export function addMetricsPortOption(command: Command): Command {
  return command.addOption(new Option('--metrics-port <port>', 'serve live Prometheus metrics on 127.0.0.1:PORT/metrics during the run').argParser(parsePort));
}

export interface LiveMetrics {
  metrics: RigMetrics | undefined;
  onProgress(event: { phase: 'start' | 'end'; scenario: string; result?: ScenarioResult }): void;
  close(): Promise<void>;
}

/** Starts serving when a port was given; otherwise does nothing at all. */
export async function startLiveMetrics(port: number | undefined, announce: (line: string) => void): Promise<LiveMetrics> {
  if (port === undefined) return { metrics: undefined, onProgress: () => {}, close: async () => {} };
  const metrics = new RigMetrics();
  const server: MetricsServer = await serveMetrics(metrics.registry, port);
  announce(`live metrics: ${server.url}`);
  return {
    metrics,
    onProgress: (e) => {
      if (e.phase === 'start') metrics.scenarioStarted(e.scenario);
      else if (e.result) metrics.scenarioEnded(e.result);
    },
    close: () => server.close(),
  };
}
