// crash-restart and the replay-plane need against an agent the rig did not write: the reference
// agent behind a front that hides /events (as an agent without an outbox has none) and restarts it
// through a restart command. crash-restart must judge it through GetTask / ListTasks / answers alone,
// pass it when it keeps its tasks and fail it, naming the guarantee, when it loses them; a scenario
// needing the replay plane must skip before sending the agent anything.
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import { startFrontedAgent, type FrontedAgent } from './support/frontedAgent.ts';

const all = await loadScenarios();
let agent: FrontedAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function runAgainst(
  front: FrontedAgent,
  names: string[],
  restartCmd?: string,
): Promise<Record<string, ScenarioResult>> {
  const run = await runScenarios(selectScenarios(all, names), {
    profile: 'smoke',
    target: front.url,
    restartCmd,
    toxiproxy: { kind: 'embedded' },
    agentFault: [],
    a2aVersion: 'auto',
  });
  return Object.fromEntries(run.scenarios.map((s) => [s.name, s]));
}

const failedChecks = (s: ScenarioResult) => s.checks.filter((c) => !c.ok).map((c) => c.name);

describe('crash-restart against an agent without a replay plane', () => {
  it(
    'passes an agent that keeps its tasks across the restart, through the core A2A surface only',
    { timeout: 60_000 },
    async () => {
      agent = await startFrontedAgent({ replayPlane: false });
      const { 'crash-restart': result } = await runAgainst(agent, ['crash-restart'], agent.restartCommand('keep'));
      expect(result.verdict, `${result.reason}\n${JSON.stringify(result.checks, null, 1)}`).toBe('passed');
      expect(agent.restarts).toBe(1);
      const names = result.checks.map((c) => c.name);
      expect(names).toContain('every task still exists after the restart (GetTask)');
      expect(names).toContain('every task is still listed after the restart (ListTasks)');
      expect(names).toContain('every open prompt is still open after the restart with the identical envelope');
      expect(names).toContain('prompts answered before the crash stay answered (a second answer is 409)');
      expect(names.filter((n) => n.startsWith('replay plane'))).toEqual([]);
      // Only the task-free probe touched /events.
      expect(agent.requests.filter((r) => r.startsWith('UPGRADE'))).toEqual(['UPGRADE /events']);
    },
  );

  it('fails an agent that loses every task on restart, naming the lost guarantee', { timeout: 60_000 }, async () => {
    agent = await startFrontedAgent({ replayPlane: false });
    const { 'crash-restart': result } = await runAgainst(agent, ['crash-restart'], agent.restartCommand('lose'));
    expect(result.verdict, result.reason).toBe('failed');
    expect(result.reason).toMatch(/^every task still exists after the restart \(GetTask\): 8 of 8 lost/);
    expect(failedChecks(result)).toEqual(
      expect.arrayContaining([
        'every task still exists after the restart (GetTask)',
        'every task is still listed after the restart (ListTasks)',
        'every open prompt is still open after the restart with the identical envelope',
        'open prompts are answerable after the restart',
        'prompts answered before the crash stay answered (a second answer is 409)',
      ]),
    );
  });
});

describe('a scenario whose needs are unmet', () => {
  it(
    'skips before it sends the agent anything: disconnect-replay against an agent without /events',
    { timeout: 30_000 },
    async () => {
      agent = await startFrontedAgent({ replayPlane: false });
      const { 'disconnect-replay': result } = await runAgainst(agent, ['disconnect-replay']);
      expect(result.verdict).toBe('skipped');
      expect(result.reason).toContain('the agent offers no replay plane');
      expect(result.reason).toContain('HTTP 404');
      expect(result.checks).toEqual([]);
      // The card (discovery) and one task-free probe of /events: no message, no task, no replay.
      expect(agent.requests.filter((r) => !r.startsWith('GET /.well-known/'))).toEqual(['UPGRADE /events']);
    },
  );

  it(
    'the probe finds the replay plane where the agent offers it, and the scenario needing it runs',
    { timeout: 60_000 },
    async () => {
      agent = await startFrontedAgent({ replayPlane: true });
      const { 'crash-restart': result } = await runAgainst(agent, ['crash-restart'], agent.restartCommand('keep'));
      expect(result.verdict, result.reason).toBe('passed');
      expect(result.checks.map((c) => c.name)).toContain(
        'replay plane (/events): every event seen before the crash is replayed after it',
      );
    },
  );
});
