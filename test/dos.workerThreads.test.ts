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
// 10 starts at 20/s: the last is due at 450 ms of the burst's 1,000 (a busy box has 550 ms to spare).
const attacks = { 'duplicate-answers': { rate: 20, max: 10 }, 'unknown-prompt': { rate: 20, max: 10 } };
// The timing gates opened wide (a busy box must not fail a test of the wiring): tax, refusal, recovery.
const loose = { maxTax: 1_000, maxRefusalP99Ms: 60_000, maxRecoveryS: 60 };
const overrides = fastDosParams(['dos-answers'], { 'dos-answers': { attacks, attackBursts: 1, ...loose } });

async function run(workers: number, agentFaults: string[] = []): Promise<ScenarioResult> {
  const result = await runScenarios(selectScenarios(all, ['dos-answers']), {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFault: agentFaults as never,
    a2aVersion: 'auto',
    workers,
    param: overrides,
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
/**
 * A check's name without the tax's statistic, which follows the sample a run collected (the p50
 * with enough round trips, "latency" when too few to pick one): that is the machine, not the threads.
 */
const named = (c: { name: string }) => c.name.replace(/(attack tax — legitimate round-trip) \S+/, '$1 …');
/** Each judged check's verdict by name (the tax may be not judged on a busy box, in either run). */
const verdicts = (s: ScenarioResult) =>
  new Map(s.checks.filter((c) => !checkNotJudged(c)).map((c) => [named(c), c.ok]));

/** The same checks, and the same verdict on each that both runs judged. */
function expectJudgedAlike(two: ScenarioResult, one: ScenarioResult): void {
  expect(two.checks.map(named).sort()).toEqual(one.checks.map(named).sort());
  const a = verdicts(one);
  const both = [...verdicts(two)].filter(([name]) => a.has(name));
  expect(both.length).toBeGreaterThan(0);
  for (const [name, ok] of both) expect(ok, `${name}\n${why(one)}\n---\n${why(two)}`).toBe(a.get(name));
}
const why = (s: ScenarioResult) =>
  `${s.reason}\n${s.checks.map((c) => `${c.ok ? 'ok' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n')}`;

describe('dos-answers on 2 worker threads', () => {
  it('records what a one-thread run records and judges it alike', { timeout: 120_000 }, async () => {
    const one = await run(1);
    const two = await run(2);
    expect(['passed', 'inconclusive'], why(two)).toContain(two.verdict);
    expect(['passed', 'inconclusive'], why(one)).toContain(one.verdict);
    const lines = (two.log ?? []).map((l) => l.line);
    expect(lines).toContain('attack duplicate-answers ran on 2 worker threads');
    expect(lines).toContain('attack unknown-prompt ran on 2 worker threads');
    expect((one.log ?? []).some((l) => /worker threads/.test(l.line))).toBe(false);
    expect(outcomeKinds(two)).toEqual(outcomeKinds(one));
    for (const attack of Object.keys(attacks)) expect(total(two, attack), why(two)).toBe(10);
    expectJudgedAlike(two, one);
  });

  it('fails on the threads as on one when the agent accepts duplicate answers', { timeout: 120_000 }, async () => {
    const one = await run(1, ['accept-duplicates']);
    const two = await run(2, ['accept-duplicates']);
    expect(two.verdict, why(two)).toBe('failed');
    expect(two.reason).toContain('duplicate-answers: every attack request refused');
    expect(outcomeKinds(two)).toEqual(outcomeKinds(one));
    expectJudgedAlike(two, one);
  });
});
