// The conformance rows of the mutation matrix (scenarios.mutationMatrix.test.ts) again over the A2A
// 1.0 HTTP+JSON and gRPC bindings and the 0.3 HTTP+JSON one of the reference agent (--binding
// http+json, grpc; --a2a-version 0.3): the correct
// agent passes every conformance scenario, and each fault a conformance scenario catches fails it
// there too, so no check's verdict depends on the binding it was made over.
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';
import { mutationRows } from './support/faultMatrix.ts';
import type { Binding } from '../rig/client/cardInterfaces.ts';
import type { Generation } from '../rig/protocol/a2aTypes.ts';

const conformance = (await loadScenarios()).filter((s) => s.tags.includes('conformance'));
const MATRIX = mutationRows(conformance);
const twoAtOnce = pLimit(2);
const verdicts = (run: RunResult) => Object.fromEntries(run.scenarios.map((s) => [s.name, s.verdict]));
const reasons = (run: RunResult) =>
  run.scenarios.map((s) => `${s.name}: ${s.verdict}${s.reason ? ` (${s.reason})` : ''}`).join('\n');

function run(names: string[], agentFaults: string[], binding: Binding, generation: Generation): Promise<RunResult> {
  return runScenarios(selectScenarios(conformance, names), {
    profile: 'smoke',
    toxiproxy: pinnedToxiproxy(),
    agentFault: agentFaults,
    a2aVersion: generation,
    binding,
  });
}

/** Faults of an HTTP status: a gRPC reply has none (an accepted answer is status OK, never 202). */
const HTTP_ONLY = new Set(['answer-202']);

describe.each<[Binding, Generation]>([
  ['HTTP+JSON', '1.0'],
  ['GRPC', '1.0'],
  ['HTTP+JSON', '0.3'],
])('mutation matrix over %s %s (conformance, smoke profile)', (binding, generation) => {
  it('every conformance scenario passes against the correct agent', { timeout: 180_000 }, async () => {
    const result = await run([], [], binding, generation);
    expect(result.target).toMatchObject({ binding, generation });
    expect(verdicts(result), reasons(result)).toEqual(Object.fromEntries(conformance.map((s) => [s.name, 'passed'])));
  });

  for (const [fault, scenarios] of Object.entries(MATRIX).filter(([f]) => binding !== 'GRPC' || !HTTP_ONLY.has(f))) {
    it.concurrent(`--agent-fault ${fault} fails ${scenarios.join(', ')}`, { timeout: 180_000 }, async () => {
      const result = await twoAtOnce(() => run(scenarios, [fault], binding, generation));
      expect(result.target).toMatchObject({ binding, generation });
      const got = verdicts(result);
      for (const name of scenarios) expect(got[name], reasons(result)).toBe('failed');
    });
  }
});
