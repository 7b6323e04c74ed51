// Why a scenario cannot run in this environment: every need of its definition that the agent, the
// fault backend or the restart command does not meet.
import type { ScenarioDefinition } from './kit/defineScenario.ts';
import type { Environment } from './environment/environment.ts';
import type { EngineScenarioContext } from './scenarioContext.ts';

/** Every need the environment does not meet, joined: a skip says all that stands in the way, not only the first. */
export function unmetNeeds(
  scenario: ScenarioDefinition<object>,
  env: Environment,
  ctx: EngineScenarioContext,
): string | undefined {
  const { needs } = scenario;
  const unmet: string[] = [];
  if (needs.hitlPrompt && !env.agent.hitl.declared) unmet.push('the agent does not declare hitl-prompt/v1 in its card');
  if (needs.faults && !env.faults)
    unmet.push(`network faults are unavailable: ${env.faultsUnavailableReason ?? 'no fault backend'}`);
  if (needs.restart && !env.canRestart) unmet.push('the agent cannot be restarted (pass --restart-cmd with --target)');
  if (needs.replayPlane && !env.replayPlane.offered)
    unmet.push(`the agent offers no replay plane (${env.replayPlane.detail})`);
  if (needs.scripts && !ctx.agent.scripts)
    unmet.push('the agent does not follow a2a-rig scripts (only the reference agent does)');
  if (needs.acceptance && !env.agent.acceptance.declared)
    unmet.push('the agent does not declare the acceptance-criteria extension in its card');
  return unmet.length > 0 ? unmet.join('; ') : undefined;
}
