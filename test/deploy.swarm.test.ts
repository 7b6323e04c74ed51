// deploy/swarm/rig-workers.yml end to end on a real Docker Swarm: three rig workers against the
// stack's reference agent, results on one shared directory, then `merge`. The merged set must be
// exact: every step's arrivals are the sum of the workers' (and the whole schedule: the offered
// rate is three times each worker's), every merged histogram is the union of the workers', the
// unsplit scenario ran once, on worker 0. A second run has one worker killed after the start:
// merge must refuse the set naming that worker, and --partial must mark the result partial.
//
// Without a Docker engine this skips with one line; with one but without the a2a-rig:local image
// (docker-compose build agent) it skips too, except under CI, where it fails.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepArrivalCount } from '../rig/load/arrivalSchedule.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { freePort } from './support/localHost.ts';
import { runRig } from './support/rigCli.ts';
import { containersBySlot, ensureSwarm, sh, swarmPrecondition } from './support/swarm.ts';

const repoRoot = new URL('../', import.meta.url).pathname;
const IMAGE = process.env.A2A_RIG_AGENT_IMAGE ?? 'a2a-rig:local';
const WORKERS = 3;
const SERIES = 'round_trip_p95_ms_vs_rate_per_s';
const RUN_WITHIN_MS = 150_000;

const blocked = swarmPrecondition(IMAGE);
if (blocked && !blocked.fatal) console.log(`deploy.swarm.test: skipped — ${blocked.reason}`);

const readResults = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResult;

async function until<T>(what: string, probe: () => T | undefined, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(blocked !== undefined && !blocked.fatal)('Docker Swarm: three rig workers, one merged result', () => {
  const stack = `a2arig${process.pid}${Date.now().toString(36)}`;
  const results = mkdtempSync(join(tmpdir(), 'a2a-rig-swarm-'));
  let leaveSwarm = () => {};
  let agentPort = 0;

  const deploy = (runId: string) => {
    const r = sh('docker', ['stack', 'deploy', '-c', join(repoRoot, 'deploy/swarm/rig-workers.yml'), stack], 120_000, {
      A2A_RIG_IMAGE: IMAGE,
      A2A_RIG_RUN_ID: runId,
      A2A_RIG_RESULTS: results,
      A2A_RIG_WORKERS: String(WORKERS),
      A2A_AGENT_PORT: String(agentPort),
      A2A_RIG_TARGET: `http://127.0.0.1:${agentPort}`,
      A2A_RIG_SCENARIOS: 'capacity duplicate-flood',
      A2A_RIG_PROFILE: 'smoke',
    });
    if (!r.ok) throw new Error(`docker stack deploy failed: ${r.err}`);
  };
  const shardDir = (runId: string, index: number) => join(results, runId, `shard-${index}`);
  const finished = (runId: string, indices: number[]) =>
    indices.every((i) => existsSync(join(shardDir(runId, i), 'results.json'))) ? true : undefined;

  beforeAll(async () => {
    if (blocked) throw new Error(`deploy.swarm.test: ${blocked.reason}`);
    chmodSync(results, 0o777);
    agentPort = await freePort();
    leaveSwarm = ensureSwarm();
  }, 90_000);

  afterAll(() => {
    const logs = sh('docker', ['service', 'logs', '--raw', `${stack}_rig`], 30_000);
    if (logs.out) console.log(`rig workers' logs:\n${logs.out.split('\n').slice(-40).join('\n')}`);
    sh('docker', ['stack', 'rm', stack], 60_000);
    leaveSwarm();
    rmSync(results, { recursive: true, force: true });
  }, 120_000);

  it(
    'merges three workers exactly: arrivals summed to the whole schedule, histograms the union',
    async () => {
      const runId = `whole-${Date.now().toString(36)}`;
      deploy(runId);
      await until('three workers results', () => finished(runId, [0, 1, 2]), RUN_WITHIN_MS);
      const workers = [0, 1, 2].map((i) => readResults(shardDir(runId, i)));
      expect(workers.map((w) => w.shard!.index)).toEqual([0, 1, 2]);
      expect(workers.map((w) => w.shard!.ran)).toEqual([['capacity', 'duplicate-flood'], ['capacity'], ['capacity']]);
      const starts = workers.map((w) => w.shard!.startedEpochMs);
      // One barrier, one start: the shares overlap (the spread is the timers' lateness).
      // Each worker plans the barrier's start on its own clock: corrected by its measured offset, the
      // plans agree (to the millisecond each rounds up to).
      const shared = workers.map((w) => w.shard!.plannedStartEpochMs + w.shard!.clockOffsetMs!);
      expect(Math.max(...shared) - Math.min(...shared)).toBeLessThanOrEqual(2);
      expect(Math.max(...starts) - Math.min(...starts)).toBeLessThan(1_500);

      const out = join(results, runId, 'merged');
      const merge = await runRig(['merge', join(results, runId), '--out', out], 60_000);
      expect(merge.stderr).toBe('');
      expect(merge.code).toBe(0);
      const total = readResults(out);
      expect(total.shards).toMatchObject({ setRunId: runId, count: 3, merged: [0, 1, 2], partial: false });
      expect(total.shards!.workers.map((w) => w.index)).toEqual([0, 1, 2]);
      expect(total.shards!.clockSkewMs).toBeGreaterThanOrEqual(0);
      expect(total.scenarios.map((s) => s.name).sort()).toEqual(['capacity', 'duplicate-flood']);

      const capacity = (r: RunResult) => r.scenarios.find((s) => s.name === 'capacity')!;
      const stepMs = capacity(total).params.stepMs as number;
      const mergedCurve = capacity(total).series![SERIES]!;
      expect(mergedCurve.length).toBeGreaterThan(0);
      for (const step of mergedCurve) {
        const shares = workers.map((w) => capacity(w).series![SERIES]!.find((p) => p.x === step.x)!.arrivals as number);
        const whole = stepArrivalCount({ ratePerSec: step.x, durationMs: stepMs });
        expect(step.arrivals).toBe(shares.reduce((a, b) => a + b, 0));
        expect(step.arrivals).toBe(whole);
        for (const share of shares) expect(Math.abs(share * WORKERS - whole)).toBeLessThan(WORKERS);
        const union = new LatencyHistogram();
        for (const w of workers)
          union.add(LatencyHistogram.decode(capacity(w).metrics[`round_trip{rate=${step.x}}`]!.hdr));
        const merged = capacity(total).metrics[`round_trip{rate=${step.x}}`]!;
        expect(merged.count).toBe(union.count);
        expect([merged.p50, merged.p95, merged.p99]).toEqual([
          union.percentileUs(50),
          union.percentileUs(95),
          union.percentileUs(99),
        ]);
      }
      const completed = workers.map((w) => capacity(w).counters.round_trips_completed!);
      expect(capacity(total).counters.round_trips_completed).toBe(completed.reduce((a, b) => a + b, 0));
    },
    RUN_WITHIN_MS + 90_000,
  );

  it(
    'a worker killed mid-run makes merge refuse the set, naming it; --partial marks the result partial',
    async () => {
      const runId = `killed-${Date.now().toString(36)}`;
      deploy(runId);
      // Worker 1 (task slot 2) is killed once it has started its share of the load.
      const victim = await until(
        'worker 1 to start',
        () => {
          const id = containersBySlot(`${stack}_rig`).get(2);
          if (!id) return undefined;
          const logs = sh('docker', ['logs', id]);
          return /worker 1 of 3 .*started/.test(logs.out + logs.err) ? id : undefined;
        },
        RUN_WITHIN_MS,
      );
      expect(sh('docker', ['kill', victim]).ok).toBe(true);
      await until('workers 0 and 2 results', () => finished(runId, [0, 2]), RUN_WITHIN_MS);
      expect(existsSync(join(shardDir(runId, 1), 'results.json'))).toBe(false);

      const refused = await runRig(['merge', join(results, runId), '--out', join(results, runId, 'merged')], 60_000);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /run killed-\S+ is incomplete: 2 of 3 workers finished \(worker 1: no results\.json/,
      );
      expect(existsSync(join(results, runId, 'merged', 'results.json'))).toBe(false);

      const out = join(results, runId, 'partial');
      const partial = await runRig(['merge', join(results, runId), '--out', out, '--partial'], 60_000);
      expect([0, 1]).toContain(partial.code);
      const total = readResults(out);
      expect(total.shards).toMatchObject({ partial: true, merged: [0, 2], missing: [{ index: 1 }] });
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/partial/i);
    },
    RUN_WITHIN_MS + 90_000,
  );
});
