// duplicate-flood with --workers 2 against the embedded reference agent: the flood runs on the
// worker threads (ctx.answerFlood; the log says so), every answer comes back with its outcome and
// latency (one accepted, the rest 409, each 409 timed), the threads' exchanges are in the traffic
// record, and the catch still catches — the agent
// fault that accepts duplicates fails the scenario on the threads.
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';

const all = await loadScenarios();
const ANSWERS = 200;

async function flood(agentFaults: string[]): Promise<ScenarioResult> {
  const result = await runScenarios(selectScenarios(all, ['duplicate-flood']), {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFault: agentFaults as never,
    a2aVersion: 'auto',
    workers: 2,
    param: { 'duplicate-flood': { answers: ANSWERS, clients: 4, connectionsPerClient: 8 } },
  });
  return result.scenarios[0]!;
}

const why = (s: ScenarioResult) =>
  `${s.reason}\n${s.checks.map((c) => `${c.ok ? 'ok' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n')}`;

describe('duplicate-flood on 2 worker threads', () => {
  it('accepts exactly one and 409s the rest, every answer timed', { timeout: 60_000 }, async () => {
    const s = await flood([]);
    expect(s.verdict, why(s)).toBe('passed');
    expect((s.log ?? []).map((l) => l.line)).toContain('the flood ran on 2 worker threads');
    expect(s.counters).toMatchObject({
      answers_accepted: 1,
      answers_conflict: ANSWERS - 1,
      answers_invalid: 0,
      answers_error: 0,
    });
    expect(s.metrics.conflict_latency?.count).toBe(ANSWERS - 1);
    expect(s.metrics.accepted_latency?.count).toBe(1);
    // The threads' exchanges are in the scenario's traffic record, as the main thread's would be.
    const answers = s.traffic?.operations.find((o) => o.operation === 'answer');
    expect(answers?.count).toBeGreaterThanOrEqual(ANSWERS);
  });

  it('fails when the agent accepts duplicate answers', { timeout: 60_000 }, async () => {
    const s = await flood(['accept-duplicates']);
    expect(s.verdict, why(s)).toBe('failed');
    expect((s.log ?? []).map((l) => l.line)).toContain('the flood ran on 2 worker threads');
    const exactlyOne = s.checks.find(
      (c) => c.name === `exactly one of ${ANSWERS} concurrent valid answers is accepted`,
    );
    expect(exactlyOne?.ok, why(s)).toBe(false);
    expect(s.counters.answers_accepted).toBeGreaterThan(1);
  });
});
