// The DoS scenarios (scenarios/dos/) against agents the rig did not write: the Python peers of
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
//   idle sockets after 1.5 s (at 1,000/s the accepts alone cost uvicorn's loop a tax of up to 12×).
// Every run has the tests' short phases and the peers their short timeouts (1.5 s headers, 3 s
// request; test/support/dosRuns.ts); a broken peer's run judges only the attack its flag is about.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult, ScenarioResult } from '../rig/results/runResult.ts';
import payloads from '../scenarios/dos/payloads.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';
import pLimit from 'p-limit';
import { pythonPeerMissing, startPythonPeer, type PeerSdk } from './support/pythonPeers.ts';
import { fastDosParams, onlyAttack, paramArgs, type ParamOverrides } from './support/dosRuns.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-dos-peers-'));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const COMMON = ['--profile', 'smoke', '--toxiproxy', 'embedded'];
const smokeAttacks = payloads.params.smoke.attacks;
const OVERRIDES: ParamOverrides = {
  'dos-payloads': { attacks: { ...smokeAttacks, 'deep-answer': { ...smokeAttacks['deep-answer'], depth: 10_000 } } },
  'dos-connections': { clientBound: 512, attacks: { 'idle-connections': { rate: 700, max: 700, holdMs: 4_000 } } },
};
const PEER_ENV = { A2A_PEER_HEADERS_TIMEOUT_S: '1.5', A2A_PEER_REQUEST_TIMEOUT_S: '3' };
const catalog = await loadScenarios();

// The mixed runs are mostly waiting (fixed phases: three at once kept 0.8 of a core busy), and this
// file has the machine to itself (vitest.config.ts): at most this many rig runs at once (at six, a
// broken run's refusals came late). The three correct runs run one at a time, before the rest (below).
const limited = pLimit(4);

/**
 * Starts a peer with `faults`, runs `scenarios` against it (`params` over the defaults here),
 * always closes the peer; the run's results.
 */
function rigAgainstPeer(
  sdk: PeerSdk,
  label: string,
  faults: string[],
  scenarios: string[],
  params: ParamOverrides = {},
) {
  return limited(async () => {
    const peer = await startPythonPeer({ sdk, faults, env: PEER_ENV });
    const dir = join(out, `${sdk}-${label}`);
    try {
      const overrides = fastDosParams(
        scenarios,
        Object.fromEntries(scenarios.map((n) => [n, { ...OVERRIDES[n], ...params[n] }])),
      );
      const argv = ['run', ...scenarios, '--target', peer.url, ...COMMON, ...paramArgs(overrides), '--out', dir];
      const run = await runRig(argv, 150_000);
      try {
        return { run, results: readRunFiles(dir).results };
      } catch (err) {
        throw new Error(
          `a2a-rig left no results (exit ${run.code}): ${(err as Error).message}\n${run.stderr.slice(-1500)}`,
          { cause: err },
        );
      }
    } finally {
      await peer.close();
    }
  });
}

const failing = (s: ScenarioResult) => s.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail ?? ''}`);
const explain = (results: RunResult) =>
  results.scenarios
    .map(
      (s) =>
        `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}; failing: ` +
        `${failing(s).join(' | ')}; notes: ${(s.notes ?? []).join(' | ')}`,
    )
    .join('\n');
const scenario = (results: RunResult, name: string) => {
  const found = results.scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`${name} is not in the results:\n${explain(results)}`);
  return found;
};

/**
 * Each peer flag, the family it must fail, and the failing check: `check` matches the check's name
 * (which the correct peer must pass), `detail` what the broken peer's measurement says. The body,
 * header, timeout and connection guards live below the SDK (dos_guards.py: an ASGI middleware and
 * uvicorn's protocol, the same code in both venvs), so one SDK shows them (the file's time is short;
 * the 0.3.26 peer fails the same checks when run by hand); the depth bound and duplicate answers
 * run on both, as their failures pass through each SDK's own request handling.
 */
const BROKEN: { fault: string; family: string; attack: string; check: RegExp; detail: RegExp; only?: PeerSdk }[] = [
  {
    fault: 'no-body-limit',
    family: 'dos-payloads',
    attack: 'oversized-answer',
    only: '1.3.0',
    check: /^oversized-answer: refused before the request is read/,
    detail: /^(\d+) of \1 answered after reading it/,
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
    detail: /^(\d+) of \1 answered 5xx/,
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
    detail: /^0 of (\d+) refused.* \1 accepted/,
  },
];

/**
 * What the correct peers pass: on 1.3.0 every family it can be judged on, in one run; on 0.3.26 the
 * families whose guarantees pass through that SDK's own request handling (the other guards are the
 * same code below the SDK).
 */
const PASSING: Record<PeerSdk, string[][]> = {
  // Two runs on 1.3.0: the connection and slow-client floods on a peer of their own.
  '1.3.0': [
    ['dos-payloads', 'dos-answers', 'dos-malformed'],
    ['dos-connections', 'dos-slow'],
  ],
  '0.3.26': [['dos-payloads', 'dos-answers']],
};

const SDKS = ['1.3.0', '0.3.26'] as const;
const missing = Object.fromEntries(SDKS.map((sdk) => [sdk, pythonPeerMissing(sdk) !== undefined])) as Record<
  PeerSdk,
  boolean
>;
/** Broken runs longest first, so the slots pack evenly. */
const LONGEST_FIRST = ['dos-slow', 'dos-connections', 'dos-payloads', 'dos-malformed', 'dos-answers'];

// The correct peers' runs come first, one at a time (this block's tests run in sequence, the
// broken runs' block after it): their attack-tax gates compare legitimate p99s, which another run's
// attack on the same two cores would move (beside the broken runs: 3-7x; beside the other correct
// runs, in CI: duplicate-answers 94 ms before, 354 ms during, against a 344 ms bound).
describe('the DoS scenarios against the correct a2a-sdk Python peers, one at a time, before any other run', () => {
  for (const sdk of SDKS)
    for (const families of PASSING[sdk]) {
      it.skipIf(missing[sdk])(
        `${sdk} correct peer: ${families.join(', ')} pass, each guarantee its flags break judged and kept`,
        { timeout: 240_000 },
        async () => {
          const { run, results } = await rigAgainstPeer(sdk, `correct-${families.join('+')}`, [], families);
          expect(results.scenarios.map((s) => [s.name, s.verdict]).sort(), explain(results)).toEqual(
            families.map((f) => [f, 'passed']).sort(),
          );
          // Passed on a measurement, not on a skip: each check a broken variant fails is here, and held.
          for (const v of BROKEN.filter((b) => families.includes(b.family))) {
            const checks = scenario(results, v.family).checks.filter((c) => v.check.test(c.name));
            expect(checks.length, `${v.family} judged ${v.check}\n${explain(results)}`).toBeGreaterThan(0);
            expect(
              checks.filter((c) => !c.ok),
              explain(results),
            ).toEqual([]);
          }
          // The payloads family judges oversized and deep answers only: the peer's prompts carry no
          // `pattern`, so pattern-backtracking has nothing to aim at and says so (not a pass).
          if (families.includes('dos-payloads'))
            expect(scenario(results, 'dos-payloads').notes?.join('\n')).toMatch(
              /pattern-backtracking: no hostile request was made/,
            );
          expect(run.code, run.stderr).toBe(0);
        },
      );
    }
});

describe('the DoS scenarios against the a2a-sdk Python peers: missing bounds and broken guards', () => {
  for (const sdk of SDKS) {
    // dos-streams: neither peer bounds its streams, and neither has a replay plane (unread-replay is
    // left out, noted). The 1.3.0 SDK serves SubscribeToTask on a parked task and holds the stream
    // unread: the scenario fails, truthfully, on the missing bound. The 0.3.26 SDK answers
    // tasks/resubscribe on a parked task with -32001 (Task not found), even with no other stream
    // open: there is nothing to leave unread and no bound to judge, so the scenario skips and says
    // why (exit 3, nothing tested), never reads green.
    it.skipIf(missing[sdk])(
      `${sdk} correct peer: dos-streams ` +
        (sdk === '1.3.0'
          ? 'fails on the stream bound it lacks'
          : 'skips: every subscription refused, nothing to judge'),
      { timeout: 240_000, concurrent: true },
      async () => {
        const { run, results } = await rigAgainstPeer(sdk, 'streams', [], ['dos-streams'], {
          'dos-streams': {
            attacks: {
              'unread-streams': { rate: 40, max: 40, holdMs: 2_000, probeMs: 200 },
              'unread-replay': { rate: 40, max: 40, holdMs: 2_000, probeMs: 200 },
            },
          },
        });
        const s = scenario(results, 'dos-streams');
        expect(s.notes?.join('\n')).toMatch(/unread-replay: the agent offers no replay plane/);
        if (sdk === '1.3.0') {
          expect(s.verdict, explain(results)).toBe('failed');
          expect(failing(s).join('\n'), explain(results)).toMatch(
            /^unread-streams: the agent sheds beyond its bound[^\n]*: 0 shed at once, 0 cut later, \d+ held/m,
          );
          expect(s.reason).toMatch(/^unread-streams: the agent sheds beyond its bound/);
          expect(run.code, run.stderr).toBe(1);
        } else {
          expect(s.verdict, explain(results)).toBe('skipped');
          expect(
            s.checks.filter((c) => c.name.startsWith('unread-streams')),
            explain(results),
          ).toEqual([]);
          expect(s.reason).toMatch(
            /unread-streams: no hostile request was made \(the agent refuses a subscription[^)]*-32001/,
          );
          expect(run.code, run.stderr).toBe(3);
        }
      },
    );
  }

  const broken = [...BROKEN].sort((a, b) => LONGEST_FIRST.indexOf(a.family) - LONGEST_FIRST.indexOf(b.family));
  for (const variant of broken) {
    for (const sdk of SDKS.filter((x) => !variant.only || variant.only === x)) {
      it.skipIf(missing[sdk])(
        `${sdk} broken peer (${variant.fault}) fails ${variant.family}, on the guarantee it breaks`,
        { timeout: 240_000, concurrent: true },
        async () => {
          const family = catalog.find((c) => c.name === variant.family)!;
          const attacks =
            variant.family === 'dos-payloads' || variant.family === 'dos-connections'
              ? (OVERRIDES[variant.family]!.attacks as Record<string, unknown>)
              : undefined;
          const only = attacks
            ? { attacks: { [variant.attack]: attacks[variant.attack] } }
            : onlyAttack(family, variant.attack);
          const { run, results } = await rigAgainstPeer(sdk, variant.fault, [variant.fault], [variant.family], {
            [variant.family]: only,
          });
          const s = scenario(results, variant.family);
          // failed, not errored or skipped: the rig saw the broken guarantee and said which.
          expect(s.verdict, explain(results)).toBe('failed');
          const broken = s.checks.filter((c) => !c.ok && variant.check.test(c.name));
          expect(broken.length, explain(results)).toBeGreaterThan(0);
          for (const c of broken) expect(c.detail, explain(results)).toMatch(variant.detail);
          expect(results.verdict).toBe('failed');
          expect(run.code, run.stderr).toBe(1);
        },
      );
    }
  }
});
