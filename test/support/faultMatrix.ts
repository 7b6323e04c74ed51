// The mutation matrices' rows, from what each scenario declares it catches (ScenarioDefinition
// `catches`): the fault flag, and the scenarios that must fail against it.
import type { ScenarioDefinition } from '../../rig/engine/kit/defineScenario.ts';
import { faultOf } from '../../rig/engine/kit/faultCatches.ts';

type Scenario = ScenarioDefinition<object>;

/** Each flag any of `scenarios` catches → those scenarios, in catalog order. */
export function mutationRows(scenarios: readonly Scenario[]): Record<string, string[]> {
  const rows: Record<string, string[]> = {};
  for (const s of scenarios) for (const c of s.catches ?? []) (rows[faultOf(c)] ??= []).push(s.name);
  return rows;
}

/**
 * Each flag a DoS scenario catches → the scenario, and the attack whose own check must fail (the
 * broken guarantee named).
 */
export function dosRows(scenarios: readonly Scenario[]): Record<string, { scenario: string; attack: string }> {
  const rows: Record<string, { scenario: string; attack: string }> = {};
  for (const s of scenarios) {
    for (const c of s.catches ?? []) {
      if (typeof c === 'string')
        throw new Error(`${s.name} catches ${c} without naming the attack whose check fails ({ fault, attack })`);
      if (rows[c.fault])
        throw new Error(`${c.fault} is caught by ${rows[c.fault]!.scenario} and ${s.name}: one DoS row per flag`);
      rows[c.fault] = { scenario: s.name, attack: c.attack };
    }
  }
  return rows;
}
