// dos-answers through the engine with --workers 2 against the embedded reference agent: its attacks
// run on the worker threads (the log says so), the record holds the same outcome kinds and the
// same check verdicts as a one-thread run, every start is accounted for, and the catch still
// catches: with the agent fault that accepts duplicate answers the scenario fails on the threads as on one.
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { checkNotJudged, type ScenarioResult } from '../rig/results/runResult.ts';
import { fastDosParams } from './support/dosRuns.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';

const all = await loadScenarios();
const attacks = { 'duplicate-answers': { rate: 20, max: 15 }, 'unknown-prompt': { rate: 20, max: 15 } };
const overrides = fastDosParams(['dos-answers'], { 'dos-answers': { attacks, attackBursts: 1 } });

async function run(workers: number, agentFaults: string[] = []): Promise<ScenarioResult> {
  const result = await runScenarios(selectScenarios(all, ['dos-answers']), {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFaults: agentFaults as never,
    generation: 'auto',
    workers,
    paramOverrides: overrides,
  });
  return result.scenarios[0]!;
}

const outcomeKinds = (s: ScenarioResult) =>
  Object.entries(s.counters)
    .filter(([k, v]) => k.startsWith('attack_outcomes{') && v > 0)
    .map(([k]) => k)
    .sort();
const total = (s: ScenarioResult, attack: string) =>
  Object.entries(s.counters)
    .filter(([k]) => k.startsWith(`attack_outcomes{attack=${attack},`))
    .reduce((sum, [, v]) => sum + v, 0);
/** Each judged check's verdict by name (the tax may be not judged on a busy box either way). */
const verdicts = (s: ScenarioResult) =>
  Object.fromEntries(s.checks.filter((c) => !checkNotJudged(c)).map((c) => [c.name, c.ok]));
const why = (s: ScenarioResult) =>
  `${s.reason}\n${s.checks.map((c) => `${c.ok ? 'ok' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n')}`;

describe('dos-answers on 2 worker threads', () => {
  it('records what a one-thread run records and judges it alike', { timeout: 120_000 }, async () => {
    const one = await run(1);
    const two = await run(2);
    expect(['passed', 'inconclusive'], why(two)).toContain(two.verdict);
    expect(two.verdict, `${why(one)}\n---\n${why(two)}`).toBe(one.verdict);
    const lines = (two.log ?? []).map((l) => l.line);
    expect(lines).toContain('attack duplicate-answers ran on 2 worker threads');
    expect(lines).toContain('attack unknown-prompt ran on 2 worker threads');
    expect((one.log ?? []).some((l) => /worker threads/.test(l.line))).toBe(false);
    expect(outcomeKinds(two)).toEqual(outcomeKinds(one));
    for (const attack of Object.keys(attacks)) expect(total(two, attack)).toBe(total(one, attack));
    expect(verdicts(two)).toEqual(verdicts(one));
  });

  it('fails on the threads as on one when the agent accepts duplicate answers', { timeout: 120_000 }, async () => {
    const one = await run(1, ['accept-duplicates']);
    const two = await run(2, ['accept-duplicates']);
    expect(two.verdict, why(two)).toBe('failed');
    expect(two.reason).toContain('duplicate-answers: every attack request refused');
    expect(outcomeKinds(two)).toEqual(outcomeKinds(one));
    expect(verdicts(two)).toEqual(verdicts(one));
  });
});
