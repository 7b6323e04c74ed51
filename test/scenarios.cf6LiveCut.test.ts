// CF-6 against agents without the replay plane: the reference agent behind a front that hides
// /events. cf6 must still cut a live stream (a subscription) through the fault proxy and look at
// what the reconnecting client sees, and name the weaker form where that is all that is possible:
// no fault backend, or an agent that refuses to subscribe to a parked task (as a2a-sdk 0.3.26 does,
// with the refusal inside an HTTP 200 event stream, or as plain JSON).
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import type { ToxiproxyChoice } from '../rig/proxy/backend.ts';
import { startFrontedAgent, type FrontOptions, type FrontedAgent } from './support/frontedAgent.ts';

const all = await loadScenarios();
let agent: FrontedAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function cf6(
  front: FrontOptions,
  toxiproxy: ToxiproxyChoice | 'none' = { kind: 'embedded' },
): Promise<ScenarioResult> {
  agent = await startFrontedAgent(front);
  const run = await runScenarios(selectScenarios(all, ['cf6']), {
    profile: 'smoke',
    target: agent.url,
    toxiproxy,
    agentFault: [],
    a2aVersion: 'auto',
  });
  return run.scenarios[0];
}

const names = (s: ScenarioResult) => s.checks.map((c) => c.name);
const dump = (s: ScenarioResult) =>
  `${s.reason}\n` +
  `${s.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail ? `: ${c.detail}` : ''}`).join('\n')}`;

describe('cf6 without a replay plane', () => {
  it('cuts a live subscription through the proxy and checks the reconnected one', { timeout: 30_000 }, async () => {
    const result = await cf6({ replayPlane: false });
    expect(result.verdict, dump(result)).toBe('passed');
    expect(names(result)).toEqual(
      expect.arrayContaining([
        'the live subscription was cut through the proxy (enabled:false)',
        'the subscription after the cut: identical prompt_id',
        'the subscription after the cut: identical response_schema',
        'the subscription after the cut misses nothing (the task still waits on the prompt last seen)',
        'the subscription after the cut is live: it shows the task leave INPUT_REQUIRED',
        'the subscription after the cut repeats nothing (the prompt is announced once)',
        'a valid answer after the reconnect is accepted',
      ]),
    );
    expect(result.faultEvents?.map((e) => e.action)).toEqual(['disable', 'enable']);
    expect(names(result).filter((n) => n.includes('replay plane') || n.includes('weaker'))).toEqual([]);
    // The plane was probed once, task-free; cf6 never tried /events for the task.
    expect(agent!.requests.filter((r) => r.startsWith('UPGRADE'))).toEqual(['UPGRADE /events']);
  });

  it('without a fault backend, says the cut is the rig dropping its own side', { timeout: 30_000 }, async () => {
    const result = await cf6({ replayPlane: false }, 'none');
    expect(result.verdict, dump(result)).toBe('passed');
    expect(names(result)).toContain(
      'the live subscription was cut by the rig dropping its own side (weaker: no fault backend)',
    );
  });

  for (const framing of ['sse', 'json'] as const) {
    it(
      `an agent refusing to subscribe to a parked task (refusal as ${framing}) ` +
        'is checked by a snapshot after the cut, named so, quoting the code',
      { timeout: 30_000 },
      async () => {
        const result = await cf6({ replayPlane: false, refuseSubscribe: framing });
        expect(result.verdict, dump(result)).toBe('passed');
        const weaker = names(result).filter((n) => n.includes('weaker'));
        expect(weaker).toHaveLength(2);
        for (const name of weaker)
          expect(name).toMatch(
            // eslint-disable-next-line max-len -- the check name as reported, as one pattern
            /^the task after the cut \(weaker: the agent refuses to subscribe to a parked task, code -32001: Task not found or not running.*; GetTask snapshot after the cut\): identical (prompt_id|response_schema)$/,
          );
        expect(names(result)).toContain('a valid answer after the reconnect is accepted');
      },
    );
  }
});

describe('cf6 with the replay plane', () => {
  it(
    "fails, instead of checking less, when the task's replay socket does not open on an agent that offers the plane",
    { timeout: 30_000 },
    async () => {
      const result = await cf6({ replayPlane: 'probe-only' });
      expect(result.verdict, dump(result)).toBe('failed');
      expect(result.reason).toMatch(/^replay plane \(\/events\): the replay socket opens: .*404/);
    },
  );

  it(
    'cuts the subscription and the replay socket together and runs the replay checker',
    { timeout: 30_000 },
    async () => {
      const result = await cf6({ replayPlane: true });
      expect(result.verdict, dump(result)).toBe('passed');
      expect(names(result)).toEqual(
        expect.arrayContaining([
          'the live subscription was cut through the proxy (enabled:false)',
          'replay plane (/events): the live replay socket was cut through the proxy (enabled:false)',
          'replay plane (/events): the replay after the cut: identical prompt_id',
          'replay plane (/events): every replay connection delivers seq since+1, ' +
            'since+2, ... (no gap, no repeat, in order)',
        ]),
      );
    },
  );
});
