// `run --workers N` through the real CLI against the embedded reference agent: capacity (a short
// search) passes on 2 worker threads, its round trips' traffic counted though it ran in them; with
// an agent whose round trips never finish it fails as it does on the main thread, for the same
// reason; a count that is not 1..64 is a usage error before anything starts; and the default leaves
// a core to an agent on this machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAPACITY_SERIES } from '../rig/load/capacitySlo.ts';
import { defaultWorkers } from '../rig/workersOption.ts';
import { runRig, runRigForResults } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-workers-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

// At most two steps (5/s, 10/s for 2 s; a busy box may leave no budget for the second); round
// trips that never resume fail at 1 s.
const CAPACITY = ['run', 'capacity', '--profile', 'smoke', '--param', 'capacity.maxRate=10'];
const BROKEN = [...CAPACITY, '--param', 'capacity.timeoutMs=1000', '--agent-fault', 'keep-input-required'];

describe('run --workers', () => {
  it.concurrent(
    'runs capacity on 2 worker threads: it passes and its traffic is counted',
    async () => {
      const { run, results } = await runRigForResults([...CAPACITY, '--workers', '2'], join(out, 'pass'), 90_000);
      const [capacity] = results.scenarios;
      expect(capacity.verdict, run.stderr).toBe('passed');
      expect((capacity.log ?? []).map((l) => l.line)).toContain('the load ran on 2 worker threads');
      const completed = capacity.counters.round_trips_completed;
      expect(completed).toBeGreaterThan(0);
      // Every round trip is a send and an answer, each made in a worker and counted here.
      const requests = capacity.traffic!.operations.reduce((n, op) => n + op.count, 0);
      expect(requests).toBeGreaterThanOrEqual(2 * completed);
      // The latencies recorded in the workers reached the scenario's histograms and its timeline.
      const counted = (prefix: string) =>
        Object.entries(capacity.metrics)
          .filter(([name]) => name.startsWith(prefix))
          .reduce((n, [, m]) => n + m.count, 0);
      expect([counted('round_trip{'), counted('resume_latency{')]).toEqual([completed, completed]);
      const timeline = capacity.timeline!.points.filter((p) => p.metric.startsWith('resume_latency{'));
      expect(timeline.reduce((n, p) => n + p.count, 0)).toBe(completed);
      // No --toxic: the load went straight to the agent, and each point says what the rig's CPU counts.
      const points = capacity.series![CAPACITY_SERIES]!;
      expect(points.map((p) => p.rig_cpu_counts)).toEqual(
        points.map(() => expect.stringMatching(/straight to the agent/)),
      );
    },
    120_000,
  );

  it.concurrent(
    'fails against a broken agent as one worker does, for the same reason',
    async () => {
      const [one, two] = await Promise.all(
        ['1', '2'].map((n) => runRigForResults([...BROKEN, '--workers', n], join(out, `broken-${n}`), 90_000)),
      );
      for (const { run } of [one, two]) expect(run.code, run.stderr).toBe(1);
      const [a, b] = [one, two].map(({ results }) => results.scenarios[0]);
      expect(b.verdict).toBe('failed');
      // How the ten failures split between timed out and unfinished, and which started late, is timing.
      const judged = (s: typeof a) => ({
        verdict: s.verdict,
        reason: s.reason?.replace(/\(> 0\.1 %: .*\)$/, ''),
        completed: s.counters.round_trips_completed,
        failed: s.counters.round_trips_failed,
        brokeAt: s.counters.slo_broken_at_per_s,
      });
      expect(judged(b)).toEqual(judged(a));
      expect(judged(b).reason).toMatch(/no round trip completed; 10 of 10 failed $/);
    },
    120_000,
  );

  it.concurrent(
    'refuses a count that is not 1..64 as a usage error',
    async () => {
      for (const bad of ['0', 'abc']) {
        const run = await runRig(['run', 'capacity', '--workers', bad]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`--workers must be a whole number from 1 to 64, got "${bad}"`);
      }
    },
    60_000,
  );
});

describe('the default worker count', () => {
  it('is one per core, one fewer when the agent runs on this machine, and 1 at least', () => {
    // A --target elsewhere: every core is the rig's.
    expect([1, 2, 8].map((cores) => defaultWorkers(false, cores))).toEqual([1, 2, 8]);
    // The embedded agent (or --env containers) needs a core of its own: a 2-core box runs no thread.
    expect([1, 2, 8].map((cores) => defaultWorkers(true, cores))).toEqual([1, 1, 7]);
    expect(defaultWorkers(false, 256)).toBe(64);
  });
});
