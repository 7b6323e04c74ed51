// The rig run against a Python peer (pythonPeers.ts), as the foreign-peer verdict tests make them:
// the peer started, the rig's CLI run against it into a directory of its own, the peer always closed;
// and the results explained in one string when an expectation fails.
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { RunResult, ScenarioResult } from '../../rig/results/runResult.ts';
import { runRigForResults } from './rigCli.ts';
import { startPythonPeer, type PeerOptions, type PeerSdk } from './pythonPeers.ts';

// The flood at 200 answers (the smoke profile's 1,000 cost a Python agent seconds of CPU): enough to
// tell one acceptance from several, which is all a broken variant has to show.
const FLOOD = ['--param', 'duplicate-flood.answers=200'];
const COMMON = ['--profile', 'smoke', '--toxiproxy', 'embedded'];

export const failing = (s: ScenarioResult) => s.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);

export const explain = (results: RunResult) =>
  results.scenarios
    .map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}; failing: ${failing(s).join(' | ')}`)
    .join('\n');

/** The runs of one test file, under `out()` (made in its beforeAll). */
export function peerRuns(out: () => string) {
  // Python peers start slowly and the suite shares two cores: at most this many rig runs at once.
  const limited = pLimit(3);
  /** Starts a peer, runs the rig against it, always closes the peer; the run's results. */
  const rigAgainstPeer = (
    sdk: PeerSdk,
    label: string,
    faults: string[],
    args: (url: string, restartCmd: string) => string[],
    binding?: PeerOptions['binding'],
  ) =>
    limited(async () => {
      const peer = await startPythonPeer({ sdk, faults, binding });
      const dir = join(out(), `${sdk}-${binding ?? 'jsonrpc'}-${label}`);
      try {
        const argv = args(peer.url, peer.restartCmd);
        return await runRigForResults(
          [...argv, ...COMMON, ...(argv.includes('duplicate-flood') ? FLOOD : [])],
          dir,
          120_000,
        );
      } finally {
        await peer.close();
      }
    });
  return { rigAgainstPeer, explain, failing };
}
