// What a scenario is: a name, what it needs from the environment, parameters per profile, a time
// budget, and a `run` that uses only the engine's context. Scenario files read like test plans.
import type { ScenarioContext } from './scenarioContextInterface.ts';
import { validateRecords, type RecordedMeasures } from '../../results/metricNames.ts';
import { PROFILES, type ProfileName } from './profiles.ts';
import { validateCatches, type FaultCatch } from './faultCatches.ts';

export { PROFILES, everyProfile, type ProfileName } from './profiles.ts';

export interface ScenarioNeeds {
  /** The agent declares the hitl-prompt/v1 extension in its card. */
  hitlPrompt?: boolean;
  /** A fault backend (Toxiproxy) sits between the rig and the agent. */
  faults?: boolean;
  /** The agent can be killed (-9) and restarted: embedded, or --restart-cmd for a target. */
  restart?: boolean;
  /** The WebSocket replay plane (/events) of the outbox (probed once per run, touching no task). */
  replayPlane?: boolean;
  /** The agent follows a2a-rig scripts (our reference agent only). */
  scripts?: boolean;
  /** The agent declares the acceptance-criteria extension in its card. */
  acceptance?: boolean;
}

/**
 * A need the rig once read under another name: there are two extensions, so `extension` no longer
 * says which. A scenario that still names it fails to load, told the new name, rather than running
 * without the need it meant.
 */
const RENAMED_NEEDS: Record<string, string> = { extension: 'hitlPrompt' };

function checkNeeds(name: string, needs: ScenarioNeeds): void {
  for (const [old, now] of Object.entries(RENAMED_NEEDS))
    if (Object.hasOwn(needs ?? {}, old))
      throw new Error(
        `scenario ${name}: needs.${old} is now needs.${now} (the hitl-prompt/v1 extension; ` +
          'needs.acceptance is the acceptance-criteria one)',
      );
}

/** Each need as `a2a-rig list` says it. */
export const NEED_LABELS: Record<keyof ScenarioNeeds, string> = {
  hitlPrompt: 'hitl-prompt/v1 in the card',
  faults: 'a fault backend (Toxiproxy)',
  restart: 'a restartable agent (embedded, or --restart-cmd)',
  replayPlane: 'the replay plane (/events)',
  scripts: 'a2a-rig scripts (the reference agent)',
  acceptance: 'the acceptance-criteria extension in the card',
};

export interface ScenarioDefinition<P extends object = Record<string, unknown>> {
  name: string;
  description: string;
  tags: string[];
  needs: ScenarioNeeds;
  /** Scenarios that must run before this one in the same run (added when not selected). */
  requires?: string[];
  params: Record<ProfileName, P>;
  /** String parameters that take one of a few values (capacity's roundTrip): `--param` refuses others before a run. */
  paramChoices?: Partial<Record<keyof P & string, readonly string[]>>;
  /** Hard bound on the scenario's run time per profile; past it the scenario errors. */
  budgetMs: Record<ProfileName, number>;
  /**
   * Every latency and counter the scenario can record, and what each counter means (see
   * rig/results/metricNames.ts). Thresholds may name only these; ctx.latency()/ctx.count() refuse
   * any other name; declared counters never counted are recorded as 0; compare reads the kinds.
   */
  records: RecordedMeasures;
  /**
   * The reference agent's fault flags (`--agent-fault`, rig/agent/faults.ts) this scenario fails
   * against: the mutation matrix proves each, `a2a-rig list` shows them. Optional for your own.
   */
  catches?: readonly FaultCatch[];
  /**
   * A distributed run (`run --shard i/N`): true when every worker runs this scenario with 1/N of
   * each of its open-model schedules and `merge` can judge it again on the union (capacity);
   * otherwise it runs once, on worker 0, at the full rate.
   */
  shardable?: boolean;
  run(ctx: ScenarioContext, params: P): Promise<void>;
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;

export function defineScenario<P extends object>(definition: ScenarioDefinition<P>): ScenarioDefinition<P> {
  if (!NAME.test(definition.name))
    throw new Error(`scenario name "${definition.name}" must be lowercase words joined by dashes`);
  checkNeeds(definition.name, definition.needs);
  for (const profile of PROFILES) {
    if (!definition.params[profile])
      throw new Error(`scenario ${definition.name} has no params for profile ${profile}`);
    for (const [key, choices] of Object.entries(definition.paramChoices ?? {}) as Array<[string, readonly string[]]>) {
      const value = (definition.params[profile] as Record<string, unknown>)[key];
      if (!choices.includes(value as string))
        throw new Error(
          `scenario ${definition.name}: ${profile}.${key} is ${JSON.stringify(value)}, ` +
            `not one of its choices (${choices.join(', ')})`,
        );
    }
    if (!(definition.budgetMs[profile] > 0))
      throw new Error(`scenario ${definition.name} has no time budget for profile ${profile}`);
  }
  validateRecords(definition.name, definition.records);
  if (definition.catches !== undefined) {
    if (!Array.isArray(definition.catches))
      throw new Error(`scenario ${definition.name}: catches must be a list of fault flags`);
    validateCatches(definition.name, definition.catches);
  }
  return definition;
}
