// Which of the reference agent's fault flags (rig/agent/faults.ts) a scenario fails against: its
// `catches`. One declaration for the mutation matrices (test/scenarios.mutationMatrix*.test.ts run
// each flag against the scenarios that declare it), `a2a-rig list`, and the docs' scenario tables
// (checked against it by test/docs.scenarioCatches.test.ts).
import { isFaultName, type FaultName } from '../../agent/faults.ts';
import type { AttackName } from '../../attack/attackRegistry.ts';

export type { FaultName } from '../../agent/faults.ts';

/**
 * A flag the scenario fails against; for a DoS scenario, with the attack whose own check fails
 * (the broken guarantee named, not only the legitimate traffic's tax under it).
 */
export type FaultCatch = FaultName | { fault: FaultName; attack: AttackName };

export const faultOf = (c: FaultCatch): FaultName => (typeof c === 'string' ? c : c.fault);

/** As `a2a-rig list` shows it: `no-body-limit (on oversized-answer)`. */
export const catchText = (c: FaultCatch): string => (typeof c === 'string' ? c : `${c.fault} (on ${c.attack})`);

/** Throws naming the scenario when a declared flag is no fault flag of the reference agent, or is declared twice. */
export function validateCatches(scenario: string, catches: readonly FaultCatch[]): void {
  const seen = new Set<string>();
  for (const c of catches) {
    const fault: unknown = typeof c === 'string' ? c : (c as { fault?: unknown } | null)?.fault;
    if (typeof fault !== 'string' || !isFaultName(fault))
      throw new Error(
        `scenario ${scenario} catches ${JSON.stringify(fault)}, ` +
          'which is no fault flag of the reference agent (rig/agent/faults.ts)',
      );
    if (seen.has(fault)) throw new Error(`scenario ${scenario} declares that it catches ${fault} twice`);
    seen.add(fault);
  }
}
