// The rig's DoS runs against agents it did not write, shared by test/foreignPeers.dos (the correct
// peers pass) and test/foreignPeers.dosFaults (the broken ones fail): the Python peers of
// test/peers/python on the official a2a-sdk 1.3.0 (A2A 1.0 wire) and 0.3.26 (A2A 0.3 wire), whose
// DoS guards (dos_guards.py) live in their HTTP layer, not in the rig's reference agent. The correct
// peer must pass each family it can be judged on; each guard-removing flag must fail its family, on
// the check of the guarantee it breaks (named), so that no verdict rests on our own agent's quirks.
//
// Two overrides, both because the scenario default does not fit this agent, not to make it pass:
// - dos-payloads: deep-answer at the attack's own default depth, 10,000, not the scenario's 100. The
//   peer's nesting bound is 128 levels and its prompt schema closes its properties, so at depth 100
//   the schema refuses the extra `tree` (422) whether or not a depth bound exists: the attack could
//   not tell the broken peer from the correct one. At 10,000 the correct peer refuses before parsing
//   (400, -32600) and the one without its bound hands the body to json.loads (RecursionError: 500).
// - dos-connections: clientBound 512, the peer's per-client bound (the scenario's 1,024 is the
//   reference agent's), so the flood needs only 512 + 256 open files and still runs where
//   `ulimit -n` is 1,024; 700 at 700/s, so that it holds more than 512 at once while the peer cuts
//   idle sockets after 1.5 s (at 1,000/s the accepts alone cost uvicorn's loop a large tax:
//   docs/testing.md, "What the tests were written against").
// Every run has the tests' short phases and the peers their short timeouts (1.5 s headers, 3 s
// request; test/support/dosRuns.ts); a broken peer's run judges only the attack its flag is about.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { RunResult, ScenarioResult } from '../../rig/results/runResult.ts';
import payloads from '../../scenarios/dos/payloads.ts';
import { runRigForResults } from './rigCli.ts';
import { pythonPeerMissing, startPythonPeer, type PeerSdk } from './pythonPeers.ts';
import { fastDosParams, paramArgs, type ParamOverrides } from './dosRuns.ts';

const COMMON = ['--profile', 'smoke', '--toxiproxy', 'embedded'];
const smokeAttacks = payloads.params.smoke.attacks;
export const OVERRIDES: ParamOverrides = {
  'dos-payloads': { attacks: { ...smokeAttacks, 'deep-answer': { ...smokeAttacks['deep-answer'], depth: 10_000 } } },
  'dos-connections': { clientBound: 512, attacks: { 'idle-connections': { rate: 700, max: 700, holdMs: 4_000 } } },
};
const PEER_ENV = { A2A_PEER_HEADERS_TIMEOUT_S: '1.5', A2A_PEER_REQUEST_TIMEOUT_S: '3' };

/**
 * Runs the rig against Python peers, at most `concurrency` runs at once, each in a directory of its
 * own under one scratch directory (removed by `close`).
 */
export function peerDosRunner(concurrency: number) {
  const limited = pLimit(concurrency);
  const out = mkdtempSync(join(tmpdir(), 'a2a-rig-dos-peers-'));
  /**
   * Starts a peer with `faults`, runs `scenarios` against it (`params` over the defaults here),
   * always closes the peer; the run's results.
   */
  const rigAgainstPeer = (
    sdk: PeerSdk,
    label: string,
    faults: string[],
    scenarios: string[],
    params: ParamOverrides = {},
  ) =>
    limited(async () => {
      const peer = await startPythonPeer({ sdk, faults, env: PEER_ENV });
      const dir = join(out, `${sdk}-${label}`);
      try {
        const overrides = fastDosParams(
          scenarios,
          Object.fromEntries(scenarios.map((n) => [n, { ...OVERRIDES[n], ...params[n] }])),
        );
        const argv = ['run', ...scenarios, '--target', peer.url, ...COMMON, ...paramArgs(overrides)];
        return await runRigForResults(argv, dir, 150_000);
      } finally {
        await peer.close();
      }
    });
  return { rigAgainstPeer, close: () => rmSync(out, { recursive: true, force: true }) };
}

export const failing = (s: ScenarioResult) => s.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);
export const explain = (results: RunResult) =>
  results.scenarios
    .map(
      (s) =>
        `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}; failing: ` +
        `${failing(s).join(' | ')}; notes: ${(s.notes ?? []).join(' | ')}`,
    )
    .join('\n');
export const scenario = (results: RunResult, name: string) => {
  const found = results.scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`${name} is not in the results:\n${explain(results)}`);
  return found;
};

/**
 * Each peer flag, the family it must fail, and the failing check: `check` matches the check's name
 * (which the correct peer must pass), `detail` what the broken peer's measurement says: at least one
 * request that shows the broken guarantee, not all of them (a peer whose loop falls behind on a busy
 * machine holds or times out some; that is the machine, and one accepted duplicate is the finding). The body,
 * header, timeout and connection guards live below the SDK (dos_guards.py: an ASGI middleware and
 * uvicorn's protocol, the same code in both venvs), so one SDK shows them (the file's time is short;
 * the 0.3.26 peer fails the same checks when run by hand); the depth bound and duplicate answers
 * run on both, as their failures pass through each SDK's own request handling.
 */
export const BROKEN: {
  fault: string;
  family: string;
  attack: string;
  check: RegExp;
  detail: RegExp;
  only?: PeerSdk;
}[] = [
  {
    fault: 'no-body-limit',
    family: 'dos-payloads',
    attack: 'oversized-answer',
    only: '1.3.0',
    check: /^oversized-answer: refused before the whole request is sent/,
    detail: /^[1-9]\d* of \d+ answered after reading it/,
  },
  {
    fault: 'no-depth-limit',
    family: 'dos-payloads',
    attack: 'deep-answer',
    check: /^deep-answer: no 5xx to attack requests/,
    detail: /answered 5xx; first: HTTP 500/,
  },
  {
    fault: 'parse-errors-500',
    family: 'dos-malformed',
    attack: 'malformed-json',
    only: '1.3.0',
    check: /^malformed-json: no 5xx to attack requests/,
    detail: /^[1-9]\d* of \d+ answered 5xx/,
  },
  {
    fault: 'no-header-limit',
    family: 'dos-malformed',
    attack: 'huge-headers',
    only: '1.3.0',
    check: /^huge-headers: every attack request refused/,
    detail: /\b[1-9]\d* accepted/,
  },
  {
    fault: 'no-request-timeouts',
    family: 'dos-slow',
    attack: 'slowloris',
    only: '1.3.0',
    check: /^slowloris: cut within \d+ ms/,
    detail: /none cut/,
  },
  {
    fault: 'no-connection-limit',
    family: 'dos-connections',
    attack: 'idle-connections',
    only: '1.3.0',
    check: /^idle-connections: the agent sheds beyond its bound/,
    detail: /^0 shed at once/,
  },
  {
    fault: 'duplicate-accepted',
    family: 'dos-answers',
    attack: 'duplicate-answers',
    check: /^duplicate-answers: every attack request refused/,
    detail: /, [1-9]\d* accepted,/,
  },
];

/**
 * What the correct peers pass: on 1.3.0 every family it can be judged on, in two runs; on 0.3.26 the
 * families whose guarantees pass through that SDK's own request handling (the other guards are the
 * same code below the SDK).
 */
export const PASSING: Record<PeerSdk, string[][]> = {
  // Two runs on 1.3.0: the connection and slow-client floods on a peer of their own.
  '1.3.0': [
    ['dos-payloads', 'dos-answers', 'dos-malformed'],
    ['dos-connections', 'dos-slow'],
  ],
  '0.3.26': [['dos-payloads', 'dos-answers']],
};

export const SDKS = ['1.3.0', '0.3.26'] as const;
export const missing = Object.fromEntries(SDKS.map((sdk) => [sdk, pythonPeerMissing(sdk) !== undefined])) as Record<
  PeerSdk,
  boolean
>;
