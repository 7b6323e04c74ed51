// A string parameter with a few meaningful values (capacity's roundTrip) declares them as
// `paramChoices`: a `--param` outside them is a one-line usage error before anything runs (a typo
// never costs a run), and a profile that sets one outside them is refused when the scenario is defined.
import { describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { parseParamArgument, resolveParamOverrides } from '../rig/engine/paramOverrides.ts';
import { UserError } from '../rig/protocol/userError.ts';
import capacity from '../scenarios/capacity.ts';

interface P {
  mode: string;
  rate: number;
}

const sample = (mode: string) =>
  defineScenario<P>({
    name: 'sample',
    description: 'sample',
    tags: [],
    needs: {},
    params: { smoke: { mode: 'a', rate: 1 }, ci: { mode, rate: 1 }, full: { mode: 'a', rate: 1 } },
    paramChoices: { mode: ['a', 'b'] },
    budgetMs: { smoke: 1, ci: 1, full: 1 },
    records: { latencies: [], counters: {} },
    run: async () => {},
  }) as ScenarioDefinition<object>;

describe('paramChoices', () => {
  const resolve = (...texts: string[]) => resolveParamOverrides([sample('a')], 'smoke', texts.map(parseParamArgument));

  it('takes a listed value', () => {
    expect(resolve('sample.mode=b', 'sample.rate=2')).toEqual({ sample: { mode: 'b', rate: 2 } });
  });

  it('refuses any other value as a usage error naming the choices', () => {
    expect(() => resolve('sample.mode=c')).toThrow(UserError);
    expect(() => resolve('sample.mode=c')).toThrow('--param sample.mode must be one of a, b, got "c"');
  });

  it('refuses a profile whose value is not one of the choices', () => {
    expect(() => sample('z')).toThrow('scenario sample: ci.mode is "z", not one of its choices (a, b)');
  });

  it("capacity's roundTrip is hitl or acceptance, hitl by default", () => {
    expect(capacity.paramChoices).toEqual({ roundTrip: ['hitl', 'acceptance'] });
    expect([capacity.params.smoke.roundTrip, capacity.params.ci.roundTrip, capacity.params.full.roundTrip]).toEqual([
      'hitl',
      'hitl',
      'hitl',
    ]);
    expect(() =>
      resolveParamOverrides([capacity as unknown as ScenarioDefinition<object>], 'smoke', [
        parseParamArgument('capacity.roundTrip=acceptence'),
      ]),
    ).toThrow(/must be one of hitl, acceptance/);
  });
});
