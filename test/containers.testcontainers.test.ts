// The reference agent and the real Toxiproxy in Docker containers (testcontainers, no Ryuk): the
// programmatic environment a user's own suite uses, `a2a-rig run --env containers`, and Ctrl-C
// during it. Skipped, with the reason on one line, where no Docker engine answers or the images are
// missing (A2A_RIG_AGENT_IMAGE, default a2a-rig:local; ghcr.io/shopify/toxiproxy:2.12.0) — except
// under CI with an engine present, where missing images fail the suite.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONTAINERS_LABEL,
  DEFAULT_AGENT_IMAGE,
  containersUnavailable,
  startContainerEnvironment,
  type ContainerEnvironment,
} from '../rig/engine/environment/containerEnvironment.ts';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { hermeticEnv, readRunFiles, runRig } from './support/rigCli.ts';

const IMAGE = process.env.A2A_RIG_AGENT_IMAGE ?? DEFAULT_AGENT_IMAGE;
const unavailable = await containersUnavailable({ agentImage: IMAGE });
const mustRun = Boolean(process.env.CI) && unavailable?.engine === true;
const skip = unavailable !== undefined && !mustRun;
if (skip) console.warn(`containers suite skipped: ${unavailable!.reason}`);
const CLI = new URL('../bin/a2a-rig.js', import.meta.url).pathname;
const SCENARIOS = ['cf1', 'cf6', 'crash-restart'];

/** Containers and outbox volumes this module started and has not removed. */
async function leftovers(): Promise<string[]> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  const containers = await docker.listContainers({ all: true, filters: { label: [CONTAINERS_LABEL] } });
  const { Volumes } = await docker.listVolumes({ filters: { name: ['a2a-rig-outbox-'] } });
  return [
    ...containers.map((c) => `container ${c.Id.slice(0, 12)} ${c.Image}`),
    ...(Volumes ?? []).map((v) => `volume ${v.Name}`),
  ];
}

describe.skipIf(skip)(`containers (agent image ${IMAGE})`, () => {
  let env: ContainerEnvironment | undefined;
  afterAll(async () => {
    await env?.stop();
  });

  it('has its engine and images (CI with an engine must not skip)', () => {
    expect(unavailable?.reason).toBeUndefined();
  });

  it(
    'programmatic: a ready context runs cf1 and crash-restart through the Environment, and stop() leaves nothing',
    { timeout: 180_000 },
    async () => {
      env = await startContainerEnvironment({ agentImage: IMAGE });
      console.log(`containers ready in ${env.readyMs} ms`);
      expect((await fetch(`${env.agentUrl}/.well-known/agent-card.json`)).status).toBe(200);
      expect((await fetch(`${env.toxiproxyUrl}/version`)).status).toBe(200);
      const started = performance.now();
      const run = await runScenarios(selectScenarios(await loadScenarios(), ['cf1', 'crash-restart']), {
        profile: 'smoke',
        target: env.directAgentUrl,
        toxiproxy: { kind: 'url', url: env.toxiproxyUrl },
        restartAgent: env.restart,
        agentFault: [],
        a2aVersion: 'auto',
      });
      console.log(
        `programmatic run: ${run.scenarios.map((s) => `${s.name} ${s.verdict}`).join(', ')} ` +
          `in ${Math.round(performance.now() - started)} ms`,
      );
      expect(run.scenarios.map((s) => [s.name, s.verdict])).toEqual([
        ['cf1', 'passed'],
        ['crash-restart', 'passed'],
      ]);
      await env.stop();
      env = undefined;
      expect(await leftovers()).toEqual([]);
    },
  );

  it(
    'a2a-rig run --env containers: cf1, cf6 and crash-restart pass, and the containers are gone after',
    { timeout: 240_000 },
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'a2a-rig-containers-'));
      const started = performance.now();
      const run = await runRig(
        ['run', ...SCENARIOS, '--env', 'containers', '--agent-image', IMAGE, '--out', out],
        230_000,
      );
      console.log(
        `--env containers run: exit ${run.code} in ${Math.round(performance.now() - started)} ms; ` +
          `${run.stderr.split('\n').find((l) => l.includes('containers ready'))}`,
      );
      expect(run.code, run.stderr).toBe(0);
      const { results } = readRunFiles(out);
      expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual(SCENARIOS.map((n) => [n, 'passed']));
      expect(await leftovers()).toEqual([]);
    },
  );

  it('--env containers with --target is a one-line usage error', async () => {
    const run = await runRig(['run', 'cf1', '--env', 'containers', '--target', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('a2a-rig: --target does not go with --env containers: the containers are the agent');
  });

  it(
    'Ctrl-C during --env containers: exit 130 and the containers and their volume removed',
    { timeout: 120_000 },
    async () => {
      const out = mkdtempSync(join(tmpdir(), 'a2a-rig-containers-'));
      const child = spawn(
        process.execPath,
        [CLI, 'run', 'crash-restart', 'cf6', '--env', 'containers', '--agent-image', IMAGE, '--out', out],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...hermeticEnv(), CI: 'true' } },
      );
      let stderr = '';
      const guard = setTimeout(() => child.kill('SIGKILL'), 100_000);
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      try {
        // Signalled once a scenario runs against the containers (the progress line names it).
        await new Promise<void>((resolve, reject) => {
          child.stderr!.on('data', (d) => {
            stderr += d;
            if (/containers ready/.test(stderr) && /crash-restart/.test(stderr)) resolve();
          });
          child.once('exit', () => reject(new Error(`the run ended before it started: ${stderr}`)));
        });
        expect((await leftovers()).length).toBeGreaterThan(0);
        const sent = performance.now();
        child.kill('SIGINT');
        expect(await closed, stderr).toBe(130);
        console.log(`Ctrl-C to exit: ${Math.round(performance.now() - sent)} ms; ${stderr.trim().split('\n').at(-1)}`);
      } finally {
        clearTimeout(guard);
        child.kill('SIGKILL');
      }
      expect(await leftovers()).toEqual([]);
    },
  );
});
