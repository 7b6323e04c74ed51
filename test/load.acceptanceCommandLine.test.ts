// The acceptance load through the command line (small counts, loopback, bounded):
// acceptance-latency (the open model at a constant rate) and capacity with roundTrip=acceptance
// record acceptance_latency, a threshold on it gates the run; with --agent-fault
// acceptance-completes-without-waiting both FAIL on a check (exit 1, not an error); an agent
// without the extension skips both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { startFakeSdkAgent } from './support/fakeSdkAgent.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-acceptance-load-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
// Both scenarios at smoke size, capacity capped at 10/s: about 80 round trips in all. The SLOs are
// roomy (5 s): these runs show what is recorded and what fails, not how fast a busy test box is.
const LOAD = [
  'run',
  'acceptance-latency',
  'capacity',
  '--profile',
  'smoke',
  '--toxiproxy',
  'none',
  '--param',
  'capacity.roundTrip=acceptance',
  '--param',
  'capacity.maxRate=10',
  '--param',
  'capacity.sloP95Ms=5000',
  '--param',
  'acceptance-latency.sloP95Ms=5000',
];

describe('acceptance load through the command line', () => {
  it.concurrent(
    'records acceptance_latency in the open model and in capacity, and a threshold on it gates the run',
    { timeout: 90_000 },
    async () => {
      const dir = join(out, 'pass');
      const run = await runRig(
        [
          ...LOAD,
          '--threshold',
          // p50: the ~60 samples bound a median, not a p95 (72 needed; a p95 would be not judged, exit 3).
          'acceptance_latency.p50<5000',
          '--threshold',
          'acceptance-latency:acceptance_latency.count>=20',
          '--out',
          dir,
        ],
        80_000,
      );
      expect(run.code, run.stderr).toBe(0);
      const { results, summary } = readRunFiles(dir);
      const [open, capacity] = results.scenarios;
      expect([open!.name, open!.verdict, capacity!.name, capacity!.verdict]).toEqual([
        'acceptance-latency',
        'passed',
        'capacity',
        'passed',
      ]);
      // Every arrival of the constant-rate run (10/s for 3 s) completed and was timed.
      expect(open!.metrics.acceptance_latency!.count).toBe(30);
      expect(open!.counters.acceptance_round_trips_completed).toBe(30);
      expect(open!.counters.acceptance_round_trips_failed).toBe(0);
      // Decision → terminal is part of the round trip from its intended start, so it is the shorter.
      const p50 = (m: { hdr: string }) => LatencyHistogram.decode(m.hdr).percentileUs(50);
      expect(p50(open!.metrics.acceptance_latency!)).toBeLessThan(p50(open!.metrics.acceptance_round_trip!));
      // capacity ran the acceptance round trip at each step (5/s, 10/s), not the HITL one.
      expect(Object.keys(capacity!.metrics).sort()).toEqual([
        'acceptance_latency{rate=10}',
        'acceptance_latency{rate=5}',
        'round_trip{rate=10}',
        'round_trip{rate=5}',
      ]);
      expect(capacity!.metrics['acceptance_latency{rate=10}']!.count).toBe(20);
      expect((results.thresholds ?? []).map((t) => [t.expression, t.ok])).toEqual([
        ['acceptance_latency.p50<5000', true],
        ['acceptance-latency:acceptance_latency.count>=20', true],
      ]);
      expect(summary).toContain('acceptance\\_latency');
    },
  );

  it.concurrent(
    'fails on a check (exit 1) against an agent that completes without waiting: no pending state, nothing to decide',
    { timeout: 90_000 },
    async () => {
      const dir = join(out, 'fault');
      const run = await runRig(
        [...LOAD, '--agent-fault', 'acceptance-completes-without-waiting', '--out', dir],
        80_000,
      );
      expect(run.code, run.stderr).toBe(1);
      const { results } = readRunFiles(dir);
      for (const scenario of results.scenarios) {
        expect(scenario.verdict, `${scenario.name}: ${scenario.reason}`).toBe('failed');
        const failed = scenario.checks.filter((c) => !c.ok);
        expect(failed).toHaveLength(1);
        expect(failed[0]!.detail).toMatch(
          /not pending: the task reached TASK_STATE_COMPLETED without a pending acceptance/,
        );
      }
      expect(results.scenarios[0]!.metrics.acceptance_latency!.count).toBe(0);
    },
  );

  it.concurrent(
    'skips both, naming the extension, against an agent that does not declare it',
    { timeout: 60_000 },
    async () => {
      const agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: 'json' });
      try {
        const dir = join(out, 'skip');
        const run = await runRig(
          [
            'run',
            'acceptance-latency',
            'capacity',
            '--param',
            'capacity.roundTrip=acceptance',
            '--target',
            agent.url,
            '--toxiproxy',
            'none',
            '--out',
            dir,
          ],
          50_000,
        );
        const { results } = readRunFiles(dir);
        expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([
          ['acceptance-latency', 'skipped'],
          ['capacity', 'skipped'],
        ]);
        for (const s of results.scenarios)
          expect(s.reason).toMatch(/does not declare the acceptance-criteria extension/);
        expect(run.code, run.stderr).toBe(3);
        // Nothing was sent: the skip came before any load.
        expect(agent.calls).toEqual([]);
      } finally {
        await agent.close();
      }
    },
  );
});
