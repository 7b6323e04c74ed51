// docker-compose.yml end to end: the stack comes up healthy on free loopback ports, the rig's default
// suite (smoke profile, the DoS scenarios left out) passes against the agent container through the
// Toxiproxy container, with crash-restart killing (-9) and restarting that container, Prometheus
// scrapes the agent and the rig, and every query of the Grafana dashboard returns data from it. The
// verdicts and query results are printed (CI's log is the evidence). Always `down -v`.
//
// Without a Docker engine (or docker-compose) this skips with one line. With an engine but without
// the images docker-compose.yml names (deploy/prepare-images.sh builds them offline) it skips too,
// except under CI, where that is a broken setup and fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/localHost.ts';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';

const repoRoot = new URL('../', import.meta.url).pathname;
const composeFile = join(repoRoot, 'docker-compose.yml');
/** Pulled by users with a registry; built by deploy/prepare-images.sh without one. */
const PREPARED_IMAGES = ['ghcr.io/shopify/toxiproxy:2.12.0', 'node:20-slim', 'prom/prometheus:v2.42.0'];
const SERVICES = ['agent', 'toxiproxy', 'prometheus'];
const HEALTHY_WITHIN_MS = 90_000;
const BUILD_WITHIN_MS = 600_000;

function sh(cmd: string, args: string[], timeoutMs = 30_000, env?: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: env ? { ...process.env, ...env } : process.env,
  });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() || String(r.error ?? '') };
}

/** Why the stack cannot run here, or undefined; `fatal` when CI must fail rather than skip. */
function precondition(): { reason: string; fatal: boolean } | undefined {
  if (!sh('docker', ['info', '--format', '{{.ServerVersion}}'], 15_000).ok)
    return { reason: 'no Docker engine answers (docker info failed)', fatal: false };
  if (!sh('docker-compose', ['version', '--short']).ok)
    return { reason: 'docker-compose is not installed', fatal: false };
  const missing = PREPARED_IMAGES.filter((image) => !sh('docker', ['image', 'inspect', image]).ok);
  if (missing.length > 0)
    return {
      reason:
        `images missing: ${missing.join(', ')} (run deploy/prepare-images.sh, ` +
        'or docker compose pull with a registry)',
      fatal: Boolean(process.env.CI),
    };
  return undefined;
}

const blocked = precondition();
if (blocked && !blocked.fatal) console.log(`deploy.compose.test: skipped — ${blocked.reason}`);

/** The Grafana variables substituted as the dashboard's defaults would (1s scrapes: 15s is 15 samples). */
function dashboardQueries(): { title: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(join(repoRoot, 'dashboards/grafana/dashboards/a2a-rig.json'), 'utf8'));
  const found: { title: string; expr: string }[] = [];
  const walk = (panels: { title?: string; targets?: { expr?: string }[]; panels?: unknown[] }[]) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? [])
        if (target.expr) found.push({ title: panel.title ?? '', expr: target.expr });
      walk((panel.panels ?? []) as typeof panels);
    }
  };
  walk(dashboard.panels);
  return found.map((q) => ({
    ...q,
    expr: q.expr
      .replaceAll('$agent_job', 'a2a-agent')
      .replaceAll('$rig_job', 'a2a-rig')
      .replaceAll('$__rate_interval', '15s'),
  }));
}

describe.skipIf(blocked !== undefined && !blocked.fatal)('docker-compose stack end to end', () => {
  const project = `a2arig${process.pid}${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-compose-'));
  const ports = { agent: 0, toxiproxy: 0, prometheus: 0, rig: 0 };
  let env: NodeJS.ProcessEnv = {};
  let started = false;
  const compose = (args: string[], timeoutMs = 120_000) =>
    sh('docker-compose', ['-p', project, '-f', composeFile, ...args], timeoutMs, env);

  beforeAll(
    async () => {
      if (blocked) return;
      ports.agent = await freePort();
      ports.toxiproxy = await freePort();
      ports.prometheus = await freePort();
      ports.rig = await freePort();
      // Same jobs as dashboards/prometheus/prometheus.yml, on this run's ports, scraped every second.
      const config = join(dir, 'prometheus.yml');
      writeFileSync(
        config,
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'scrape_configs:',
          `  - job_name: a2a-agent\n    static_configs:\n      - targets: ['127.0.0.1:${ports.agent}']`,
          `  - job_name: a2a-rig\n    static_configs:\n      - targets: ['127.0.0.1:${ports.rig}']`,
          '',
        ].join('\n'),
      );
      chmodSync(config, 0o644); // Prometheus runs as nobody
      env = {
        A2A_AGENT_PORT: String(ports.agent),
        A2A_TOXIPROXY_PORT: String(ports.toxiproxy),
        A2A_PROMETHEUS_PORT: String(ports.prometheus),
        A2A_PROMETHEUS_CONFIG: config,
      };
      const t0 = performance.now();
      const build = compose(['build', 'agent'], BUILD_WITHIN_MS);
      if (!build.ok) throw new Error(`docker-compose build agent failed: ${build.err.slice(-2000)}`);
      const t1 = performance.now();
      started = true;
      const up = compose(['up', '-d']);
      if (!up.ok) throw new Error(`docker-compose up -d failed: ${up.err.slice(-2000)}`);
      await waitHealthy();
      console.log(
        `deploy.compose.test: agent image built in ${Math.round(t1 - t0)} ms; ` +
          `up to healthy in ${Math.round(performance.now() - t1)} ms (ports ${JSON.stringify(ports)})`,
      );
    },
    BUILD_WITHIN_MS + HEALTHY_WITHIN_MS + 60_000,
  );

  afterAll(() => {
    if (started) {
      const down = compose(['down', '-v', '--remove-orphans']);
      if (!down.ok) console.log(`deploy.compose.test: docker-compose down -v failed: ${down.err}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }, 130_000);

  function containerOf(service: string): string {
    const id = compose(['ps', '-q', service]).out;
    if (!id) throw new Error(`docker-compose has no container for ${service}`);
    return id;
  }

  async function waitHealthy(): Promise<void> {
    const deadline = performance.now() + HEALTHY_WITHIN_MS;
    let states: string[] = [];
    while (performance.now() < deadline) {
      states = SERVICES.map(
        (s) => `${s}=${sh('docker', ['inspect', '-f', '{{.State.Health.Status}}', containerOf(s)]).out}`,
      );
      if (states.every((s) => s.endsWith('=healthy'))) return;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    throw new Error(
      `the stack was not healthy within ${HEALTHY_WITHIN_MS} ms: ` +
        `${states.join(', ')}\n${compose(['logs', '--tail', '20']).out}`,
    );
  }

  async function prometheus(
    path: string,
    params: Record<string, string>,
  ): Promise<{ metric: Record<string, string>; values?: unknown[] }[]> {
    const response = await fetch(`http://127.0.0.1:${ports.prometheus}${path}?${new URLSearchParams(params)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data: { result: { metric: Record<string, string>; values?: unknown[] }[] };
    };
    if (body.status !== 'success') throw new Error(`Prometheus ${params.query}: ${body.error}`);
    return body.data.result;
  }

  it(
    'runs the default suite through the containers, ' +
      'crash-restart included, and Prometheus has every dashboard query',
    async () => {
      if (blocked) throw new Error(`CI is set and a Docker engine is present, but ${blocked.reason}`);
      const agent = containerOf('agent');
      const runStart = Date.now() / 1000;
      const out = join(dir, 'run');
      // Every scenario but the DoS ones (a minute and a half of attacks that prove nothing about the
      // containers; test/scenarios.mutationMatrixDos.test.ts runs them).
      const notDos = (await loadScenarios()).filter((s) => !s.tags.includes('dos')).map((s) => s.name);
      const run: CliRun = await runRig(
        [
          'run',
          ...notDos,
          '--profile',
          'smoke',
          '--target',
          `http://127.0.0.1:${ports.agent}`,
          '--toxiproxy',
          `http://127.0.0.1:${ports.toxiproxy}`,
          '--restart-cmd',
          `docker kill --signal KILL ${agent} && docker start ${agent}`,
          '--metrics-port',
          String(ports.rig),
          '--out',
          out,
        ],
        170_000,
      );
      if (!existsSync(join(out, 'results.json'))) {
        throw new Error(
          `the rig wrote no results (exit ${run.code}); stderr: ${run.stderr.slice(-3000)}\n` +
            `stdout: ${run.stdout.slice(-1500)}\n${compose(['logs', '--tail', '30']).out}`,
        );
      }
      const { results } = readRunFiles(out);
      console.log(
        `deploy.compose.test: rig exit ${run.code}, verdict ${results.verdict}\n` +
          `${results.scenarios.map((s) => `  ${s.verdict.padEnd(8)} ${s.name}`).join('\n')}`,
      );
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      expect(results.scenarios.find((s) => s.name === 'crash-restart')?.verdict).toBe('passed');

      // One more scrape after the run's last sample, then read the whole run back.
      await new Promise((r) => setTimeout(r, 2_000));
      const range = { start: String(runStart - 5), end: String(Date.now() / 1000), step: '1s' };
      const lines: string[] = [];
      const empty: string[] = [];
      for (const job of ['a2a-agent', 'a2a-rig']) {
        const up = await prometheus('/api/v1/query_range', { query: `max_over_time(up{job="${job}"}[1m])`, ...range });
        const scraped = up.some((series) => (series.values as [number, string][]).some(([, v]) => v === '1'));
        lines.push(`  ${scraped ? 'scraped    ' : 'NOT SCRAPED'} up{job="${job}"}`);
        if (!scraped) empty.push(`up{job="${job}"}`);
      }
      for (const { title, expr } of dashboardQueries()) {
        const result = await prometheus('/api/v1/query_range', { query: expr, ...range });
        const points = result.reduce((n, series) => n + (series.values?.length ?? 0), 0);
        lines.push(
          `  ${String(result.length).padStart(3)} series ${String(points).padStart(5)} points  ${title}: ${expr}`,
        );
        if (points === 0) empty.push(`${title}: ${expr}`);
      }
      console.log(
        'deploy.compose.test: ' +
          `Prometheus over the run (${Math.round(Date.now() / 1000 - runStart)} s)\n${lines.join('\n')}`,
      );
      expect(empty, 'queries without data').toEqual([]);
    },
    240_000,
  );
});
