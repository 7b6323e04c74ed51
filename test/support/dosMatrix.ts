// What the two DoS mutation-matrix files share (test/scenarios.mutationMatrixDos*.test.ts, split so
// the suite's two workers share their minutes): the flag → scenario → attack table (from the DoS
// scenarios' `catches`), and one run of DoS scenarios against the embedded reference agent with the
// tests' short phases (dosRuns.ts).
import { loadScenarios, selectScenarios } from '../../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../../rig/engine/runScenarios.ts';
import type { RunResult } from '../../rig/results/runResult.ts';
import { pinnedToxiproxy } from './proxyBackends.ts';
import { fastDosParams, type ParamOverrides } from './dosRuns.ts';
import { dosRows } from './faultMatrix.ts';

/**
 * The embedded agent with short client timeouts (1.5 s headers, 3 s request), so a row takes
 * seconds. With idle connections cut after 1.5 s the idle flood holds fewer at once, so the
 * per-client bound is 256 here (1,024 by default): the flood still goes past it.
 */
const AGENT_ARGS = [
  '--headers-timeout-ms',
  '1500',
  '--request-timeout-ms',
  '3000',
  '--max-connections-per-client',
  '256',
];

export const dosScenarios = (await loadScenarios()).filter((s) => s.tags.includes('dos'));
/**
 * Each flag, the scenario it must fail, and the attack whose own check must be among the failed ones
 * (the broken guarantee named): the scenarios' `catches`.
 */
export const DOS_MATRIX = dosRows(dosScenarios);
export const verdicts = (run: RunResult) => Object.fromEntries(run.scenarios.map((s) => [s.name, s.verdict]));
export const reasons = (run: RunResult) =>
  run.scenarios
    .map(
      (s) =>
        `${s.name}: ${s.verdict}` +
        (s.reason ? ` (${s.reason})` : '') +
        (s.notes?.length ? ` [${s.notes.join('; ')}]` : ''),
    )
    .join('\n');

export function runDos(
  names: string[],
  agentFaults: string[],
  params: ParamOverrides = {},
  agentArgs: string[] = [],
): Promise<RunResult> {
  const selected = selectScenarios(dosScenarios, names);
  // The agent's per-client bound is 256 here (AGENT_ARGS): the flood need only pass that, which
  // also keeps it within a CI box's `ulimit -n` of 1,024.
  const overrides = fastDosParams(
    selected.map((s) => s.name),
    { ...params, 'dos-connections': { clientBound: 256, ...params['dos-connections'] } },
  );
  return runScenarios(selected, {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFault: agentFaults,
    agentArgs: [...AGENT_ARGS, ...agentArgs],
    param: overrides,
    a2aVersion: 'auto',
  });
}
