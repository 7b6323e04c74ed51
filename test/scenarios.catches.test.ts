// What each scenario declares it catches (`catches`: the reference agent's fault flags it fails
// against) is the mutation matrices' rows, so the declarations themselves are held here: every
// scenario catches something, every fault flag is caught by a scenario, a DoS scenario names the
// attack of its own that fails, and a flag that is no flag is refused when the scenario is defined.
import { describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../rig/agent/faults.ts';
import { defineScenario, everyProfile } from '../rig/engine/kit/defineScenario.ts';
import { faultOf } from '../rig/engine/kit/faultCatches.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';
import { dosRows, mutationRows } from './support/faultMatrix.ts';

const all = await loadScenarios();
const dos = all.filter((s) => s.tags.includes('dos'));
const rest = all.filter((s) => !s.tags.includes('dos'));

/** Flags no scenario is expected to catch, with why. */
const DELIBERATELY_UNCAUGHT: Partial<Record<FaultName, string>> = {
  'rejection-data-bare':
    "it breaks no MUST, only the contract example's shape: cf3 passes with a warning (fails under --strict), " +
    'test/cli.conformWarnings.test.ts',
  'prompt-id-v7':
    "a version-7 UUID is a valid UUID; only the contract schema's pattern predates it: cf5 passes with a " +
    'warning (fails under --strict), test/cli.conformWarnings.test.ts',
};

describe('what the scenarios declare they catch', () => {
  it('every scenario catches at least one fault flag', () => {
    expect(all.filter((s) => !s.catches?.length).map((s) => s.name)).toEqual([]);
  });

  it('every fault flag is caught by a scenario, or is listed as deliberately uncaught with why', () => {
    const caught = new Set(all.flatMap((s) => (s.catches ?? []).map(faultOf)));
    const missing = (Object.keys(FAULTS) as FaultName[]).filter((f) => !caught.has(f) && !DELIBERATELY_UNCAUGHT[f]);
    expect(missing).toEqual([]);
    for (const [flag, why] of Object.entries(DELIBERATELY_UNCAUGHT))
      expect(caught.has(flag as FaultName), `${flag} is listed as uncaught (${why}) yet a scenario catches it`).toBe(
        false,
      );
  });

  it(
    'the main matrix has a row for every flag a non-DoS scenario catches, ' +
      'the DoS matrix one per flag with its attack',
    () => {
      expect(Object.values(mutationRows(rest)).flat().sort()).toEqual(
        rest.flatMap((s) => (s.catches ?? []).map(() => s.name)).sort(),
      );
      const rows = dosRows(dos);
      expect(Object.keys(rows).sort()).toEqual(dos.flatMap((s) => (s.catches ?? []).map(faultOf)).sort());
      // The attack named is one the scenario runs.
      for (const [fault, { scenario, attack }] of Object.entries(rows)) {
        const attacks = (dos.find((s) => s.name === scenario)!.params.smoke as { attacks: Record<string, unknown> })
          .attacks;
        expect(Object.keys(attacks), `${fault}: ${scenario} runs no ${attack}`).toContain(attack);
      }
    },
  );

  it('defineScenario refuses a flag the reference agent does not have, or one declared twice', () => {
    const scenario = (catches: unknown) => ({
      name: 'probe',
      description: '',
      tags: [],
      needs: {},
      params: everyProfile({}),
      budgetMs: everyProfile(1_000),
      records: { latencies: [], counters: {} },
      catches: catches as FaultName[],
      run: async () => {},
    });
    expect(() => defineScenario(scenario(['accept-duplicate']))).toThrow(
      'scenario probe catches "accept-duplicate", which is no fault flag of the reference agent',
    );
    expect(() => defineScenario(scenario(['slow-resume', 'slow-resume']))).toThrow(
      'scenario probe declares that it catches slow-resume twice',
    );
    expect(() => defineScenario(scenario('slow-resume'))).toThrow('catches must be a list of fault flags');
    expect(
      defineScenario(scenario(['slow-resume', { fault: 'no-body-limit', attack: 'oversized-answer' }])).catches,
    ).toHaveLength(2);
    expect(defineScenario(scenario(undefined)).catches).toBeUndefined();
  });
});
