// The Grafana dashboard and the Prometheus config are only ever run elsewhere (no Docker here), so
// what can drift is checked here: every metric a panel queries exists in the agent's or the rig's
// registry, panels use the provisioned datasource, and the scrape jobs and ports agree with
// docker-compose.yml and the dashboard's job variables.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentMetrics } from '../rig/agent/agentMetrics.ts';
import { RigMetrics } from '../rig/metrics/rigMetrics.ts';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}

const dashboard = JSON.parse(read('dashboards/grafana/dashboards/a2a-rig.json')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; query: string }> };
};

async function registeredNames(): Promise<Set<string>> {
  const agent = new AgentMetrics({ tasksByState: () => ({}), openPrompts: () => 0, pendingAcceptances: () => 0 });
  const rig = new RigMetrics();
  const names = new Set<string>();
  for (const registry of [agent.registry, rig.registry])
    for (const m of await registry.getMetricsAsJSON()) names.add(m.name);
  return names;
}

describe('dashboards/', () => {
  it('queries only metrics the agent and the rig export', async () => {
    const names = await registeredNames();
    const queried = new Set<string>();
    for (const panel of dashboard.panels)
      for (const t of panel.targets ?? [])
        for (const [name] of t.expr.matchAll(/\ba2a_(?:agent|rig)_[a-z0-9_]+/g))
          queried.add(name.replace(/_(bucket|sum|count)$/, ''));
    expect(queried.size).toBeGreaterThan(10);
    const unknown = [...queried].filter((n) => !names.has(n));
    expect(unknown).toEqual([]);
  });

  it('points every panel at the provisioned Prometheus datasource', () => {
    const uid = /uid:\s*(\S+)/.exec(read('dashboards/grafana/provisioning/datasources/prometheus.yml'))![1];
    const queryPanels = dashboard.panels.filter((p) => p.type !== 'row');
    expect(queryPanels.length).toBeGreaterThan(10);
    for (const p of queryPanels) {
      expect(p.datasource?.uid, p.title).toBe(uid);
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe(uid);
    }
  });

  it('scrapes the jobs and ports that docker-compose, the dashboard and the README use', () => {
    const prometheus = read('dashboards/prometheus/prometheus.yml');
    const compose = read('docker-compose.yml');
    const jobs = [...prometheus.matchAll(/job_name:\s*(\S+)/g)].map((m) => m[1]);
    const variables = Object.fromEntries(dashboard.templating.list.map((v) => [v.name, v.query]));
    expect(jobs).toEqual([variables.agent_job, variables.rig_job]);
    expect(compose).toContain('"--port", "${A2A_AGENT_PORT:-8080}"');
    expect(prometheus).toContain("targets: ['127.0.0.1:8080']");
    expect(prometheus).toContain("targets: ['127.0.0.1:9479']");
    expect(compose).toContain('--metrics-port 9479');
    expect(compose).toContain(
      '${A2A_PROMETHEUS_CONFIG:-./dashboards/prometheus/prometheus.yml}:/etc/prometheus/prometheus.yml',
    );
    expect(compose).toContain('ghcr.io/shopify/toxiproxy:2.12.0');
  });
});
