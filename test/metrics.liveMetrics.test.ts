// The rig's live metrics: scraped from a real run while it runs (`--metrics-port`), the open-model
// load's arrival rate and iterations, and the port's errors.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';
import { observedOpenModel } from '../rig/engine/observedOpenModel.ts';
import { liveMetricsObserver } from '../rig/engine/liveMetricsOption.ts';
import { RigMetrics } from '../rig/metrics/rigMetrics.ts';
import { serveMetrics } from '../rig/metrics/metricsServer.ts';
import { hermeticEnv, runRig } from './support/rigCli.ts';

const repoRoot = new URL('../', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    map.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return map;
}

async function gauge(metrics: RigMetrics, name: string): Promise<number> {
  return (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value ?? NaN;
}

describe('live metrics of an open-model load', () => {
  it('show the offered arrival rate while it runs, iterations by outcome, and 0 after', async () => {
    const metrics = new RigMetrics();
    const seen: number[] = [];
    const result = await runOpenModel(
      observedOpenModel(
        {
          arrivals: constantArrivals(100, 200),
          iteration: async ({ index }) => {
            if (index >= 2) seen.push(await gauge(metrics, 'a2a_rig_arrival_rate_per_second'));
            if (index % 5 === 4) throw new Error('every fifth fails');
          },
          maxInFlight: 8,
          iterationTimeoutMs: 1_000,
          drainTimeoutMs: 1_000,
        },
        liveMetricsObserver(metrics),
      ),
    );
    expect(result.scheduled).toBe(20);
    expect(seen.length).toBe(18);
    for (const rate of seen) expect(rate).toBeCloseTo(100, 6);
    expect(await gauge(metrics, 'a2a_rig_arrival_rate_per_second')).toBe(0);
    expect(await gauge(metrics, 'a2a_rig_load_in_flight')).toBe(0);
    const text = samples(await metrics.registry.metrics());
    expect(text.get('a2a_rig_load_iterations_total{outcome="started"}')).toBe(20);
    expect(text.get('a2a_rig_load_iterations_total{outcome="succeeded"}')).toBe(16);
    expect(text.get('a2a_rig_load_iterations_total{outcome="failed"}')).toBe(4);
  });
});

describe('a2a-rig run --metrics-port', () => {
  it('serves the run as it happens on loopback, and stops serving when the run ends', async () => {
    const out = mkdtempSync(join(tmpdir(), 'a2a-rig-live-'));
    dirs.push(out);
    const child = spawn(
      process.execPath,
      [
        'bin/a2a-rig.js',
        'run',
        'resume-latency',
        '--param',
        'resume-latency.trials=8',
        '--metrics-port',
        '0',
        '--out',
        out,
      ],
      { cwd: repoRoot, env: hermeticEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no metrics URL within 20 s: ${stderr}`)), 20_000);
        child.stderr!.on('data', (d) => {
          stderr += d;
          const m = /live metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(stderr);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
      });
      // Poll until the scrape shows the scenario at work (bounded: 40 s, 100 ms apart).
      let live: Map<string, number> | undefined;
      const deadline = performance.now() + 40_000;
      while (performance.now() < deadline) {
        const s = samples(await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text());
        if (
          s.get('a2a_rig_scenario_running{scenario="resume-latency"}') === 1 &&
          (s.get('a2a_rig_answers_total{outcome="accepted"}') ?? 0) >= 3
        ) {
          live = s;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(live, 'a scrape during the scenario').toBeDefined();
      expect(
        live!.get('a2a_rig_latency_seconds_count{scenario="resume-latency",metric="resume_latency"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(live!.get('a2a_rig_requests_total{method="SendMessage",outcome="ok"}')).toBeGreaterThanOrEqual(3);
      expect(live!.get('a2a_rig_answer_duration_seconds_count{outcome="accepted"}')).toBeGreaterThanOrEqual(3);

      const code = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('run did not end within 60 s')), 60_000)),
      ]);
      expect(code).toBe(0);
      await expect(fetch(url, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);

  it('a port in use, or not a port, is one line and exit 2', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(serveMetrics(new RigMetrics().registry, port)).rejects.toThrow(
        /--metrics-port \d+: the port is in use/,
      );
      const bad = await runRig(['run', 'cf1', '--metrics-port', 'abc'], 30_000);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toEqual([
        'a2a-rig: --metrics-port must be a TCP port 0..65535 (0 picks a free one), got "abc"',
      ]);
    } finally {
      blocker.close();
    }
  });
});
