// capacity on worker threads against an agent the rig did not write: the a2a-sdk 1.3.0 Python peer.
// The correct peer passes a short search run on 2 threads with every round trip counted; the peer
// that never leaves INPUT_REQUIRED fails it, because no round trip completes. So the verdict that
// worker threads reach does not hang on a quirk of the reference agent (test/cli.workers has ours).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerRuns } from './support/peerRuns.ts';
import { pythonPeerMissing } from './support/pythonPeers.ts';

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-peer-capacity-'));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const { rigAgainstPeer, explain } = peerRuns(() => out);

// At most two steps (5/s, 10/s for 2 s); round trips that never resume fail at 1 s.
const capacityOn2Workers = (url: string) => [
  'run',
  'capacity',
  '--target',
  url,
  '--workers',
  '2',
  '--param',
  'capacity.maxRate=10',
  '--param',
  'capacity.timeoutMs=1000',
];

describe
  .skipIf(pythonPeerMissing('1.3.0') !== undefined)
  .concurrent('capacity on 2 worker threads, Python peer', () => {
    it('passes against the correct peer, every round trip counted', { timeout: 150_000 }, async () => {
      const { run, results } = await rigAgainstPeer('1.3.0', 'capacity-workers', [], capacityOn2Workers);
      const [capacity] = results.scenarios;
      expect(capacity.verdict, explain(results)).toBe('passed');
      expect((capacity.log ?? []).map((l) => l.line)).toContain('the load ran on 2 worker threads');
      const completed = capacity.counters.round_trips_completed;
      expect(completed).toBeGreaterThan(0);
      const resumes = Object.entries(capacity.metrics)
        .filter(([name]) => name.startsWith('resume_latency{'))
        .reduce((n, [, m]) => n + m.count, 0);
      expect(resumes).toBe(completed);
      expect(run.code, run.stderr).toBe(0);
    });

    it('fails against the peer that keeps INPUT_REQUIRED: no round trip completes', { timeout: 150_000 }, async () => {
      const { run, results } = await rigAgainstPeer(
        '1.3.0',
        'capacity-workers-broken',
        ['keep-input-required'],
        capacityOn2Workers,
      );
      const [capacity] = results.scenarios;
      expect(capacity.verdict, explain(results)).toBe('failed');
      expect(capacity.reason).toMatch(/no round trip completed/);
      expect(capacity.counters.round_trips_completed).toBe(0);
      expect(run.code, run.stderr).toBe(1);
    });
  });
