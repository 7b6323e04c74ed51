// Shorter DoS runs for the tests (the matrix, the foreign peers): the same scenarios and gates, phases
// cut to what still carries each verdict — 1.5 s of baseline at 10 round trips/s, attacks that start
// for 1 s each, 2 s after (two recovery windows) — with the agents' client timeouts shortened to match
// (1.5 s headers, 3 s request), so slow and idle attacks settle in seconds. A user's smoke run keeps
// the scenarios' own sizes.
import type { ScenarioDefinition } from '../../rig/engine/kit/defineScenario.ts';

export type ParamOverrides = Record<string, Record<string, unknown>>;

const FAST_PHASES = { warmupMs: 300, beforeMs: 1_500, attackMs: 1_000, afterMs: 2_000, maxRecoveryS: 2 };
/** With 3 s request timeouts a slow request is cut within 6 s; each slow attack's window ends by 8 s. */
const FAST_SLOW = { maxCutMs: 6_000, attackCapMs: 8_000 };

/** Overrides for `names`, plus any given per scenario (applied last). */
export function fastDosParams(names: string[], perScenario: ParamOverrides = {}): ParamOverrides {
  return Object.fromEntries(
    names.map((n) => [n, { ...FAST_PHASES, ...(n === 'dos-slow' ? FAST_SLOW : {}), ...perScenario[n] }]),
  );
}

/** The same overrides as `--param` arguments for the CLI. */
export function paramArgs(overrides: ParamOverrides): string[] {
  return Object.entries(overrides).flatMap(([scenario, params]) =>
    Object.entries(params).flatMap(([key, value]) => [
      '--param',
      `${scenario}.${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    ]),
  );
}

/**
 * Only `attack` of a scenario's smoke attacks, at its smoke rate and size: a fault row judges the one
 * attack its flag is about.
 */
export function onlyAttack(scenario: ScenarioDefinition<object>, attack: string): { attacks: Record<string, unknown> } {
  const attacks = (scenario.params.smoke as { attacks: Record<string, unknown> }).attacks;
  if (!attacks[attack]) throw new Error(`${scenario.name} has no attack ${attack}`);
  return { attacks: { [attack]: attacks[attack] } };
}
