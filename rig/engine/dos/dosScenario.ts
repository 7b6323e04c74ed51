// What the six DoS scenarios (scenarios/dos/) share: the run of one family's attacks in one mixed
// run (attackRun.ts) beside legitimate traffic, sized by dosParams.ts and judged by dosJudge.ts. A
// scenario file names its family, its attacks and its sizes; everything else is shared so the six
// judge alike.
import { ATTACKS, type AttackName } from '../../attack/attackRegistry.ts';
import { constantArrivals } from '../../load/arrivalSchedule.ts';
import { assertReached } from '../../load/reachedAgent.ts';
import { ResourceSampler } from './agentResources.ts';
import type { MixedRunResult, PlannedAttack } from './attackRun.ts';
import { judgeDosRun, plotResources } from './dosJudge.ts';
import type { DosParams } from './dosParams.ts';
import { ATTACK_STYLES } from './dosVerdicts.ts';
import type { ScenarioContext } from '../kit/scenarioContextInterface.ts';

/**
 * The script of the prompts payload attacks answer, for agents that follow scripts: a string answer
 * under a `pattern` whose backtracking is catastrophic (`^(a+)+$`), which a linear-time validator
 * shrugs off, and an open `tree` (any JSON, other properties allowed) so that only the agent's own
 * nesting and size bounds — not the schema — stand between a deep or huge payload and acceptance.
 * Other agents get their own default prompt.
 */
export const PAYLOAD_STEPS = [
  {
    prompt: {
      text: 'Say a few a letters',
      response_schema: {
        type: 'object',
        properties: { answer: { type: 'string', pattern: '^(a+)+$', examples: ['aaaa'] }, tree: {} },
        required: ['answer'],
      },
    },
  },
  { complete: {} },
];

/** The family's attacks as built here, and why any is left out. */
function planAttacks(ctx: ScenarioContext, names: AttackName[], p: DosParams): PlannedAttack[] {
  const planned: PlannedAttack[] = [];
  for (const name of names) {
    const attack = ATTACKS[name] as (typeof ATTACKS)[AttackName] | undefined;
    if (!attack) {
      ctx.note(`${name}: no such attack in this build of the rig; left out`);
      continue;
    }
    if (name === 'unread-replay' && !ctx.agent.replayPlane) {
      ctx.note(`${name}: the agent offers no replay plane (/events); left out`);
      continue;
    }
    // `attacks` says which of the family's attacks run (`--param` replaces it whole): one left out of
    // it is not judged, and says so.
    const choice = p.attacks[name];
    if (!choice) {
      ctx.note(`${name}: not in this run's attacks param; left out`);
      continue;
    }
    const { rate, max, ...own } = choice;
    planned.push({
      name,
      attack,
      params: { ...attack.defaults, ...own },
      ratePerSecond: rate,
      maxRequests: max,
      // A holding attack must pass the agent's bound in every burst (attackRun.ts).
      wholeBursts: ATTACK_STYLES[name] === 'holding',
    });
  }
  const family = new Set<string>(names);
  // A typo must not run a smaller attack quietly: the scenario errors, naming what it knows.
  const unknown = Object.keys(p.attacks).filter((n) => !family.has(n));
  if (unknown.length > 0)
    throw new Error(
      `the attacks param names ${unknown.join(', ')}, not an attack of this scenario (${names.join(', ')})`,
    );
  return planned;
}

/**
 * Runs `names` beside legitimate traffic and records and judges the run. `payloadPrompts`: the
 * prompts attacks answer carry PAYLOAD_STEPS' schema (agents that follow scripts; the legitimate
 * prompts never do, as the rig's answer synthesizer does not write to a pattern).
 */
export async function runDosFamily(
  ctx: ScenarioContext,
  names: AttackName[],
  p: DosParams,
  options: { payloadPrompts?: boolean } = {},
): Promise<void> {
  if (!ctx.agent.hitl)
    ctx.skip('the agent does not declare hitl-prompt/v1: the legitimate workload is HITL round trips');
  const target = ctx.attackTarget(
    p.sourceAddress,
    options.payloadPrompts && ctx.agent.scripts ? PAYLOAD_STEPS : undefined,
  );
  const attacks = planAttacks(ctx, names, p);
  if (attacks.length === 0) ctx.skip(`none of ${names.join(', ')} can run here: ${ctx.notes.join('; ')}`);
  const source = await ctx.agentResources();
  let sampler: ResourceSampler | undefined;
  if ('unavailable' in source)
    ctx.note(`agent resources (RSS, CPU, connections) not sampled, memory not judged: ${source.unavailable}`);
  else {
    ctx.log(`agent resources from ${source.label}, every ${p.sampleMs} ms`);
    sampler = new ResourceSampler(source, p.sampleMs);
    sampler.start();
  }
  const client = ctx.newClient(p.connections);
  let run: MixedRunResult;
  try {
    // Warm-up, not recorded: connections, JIT and schema caches on both sides, so the baseline is the
    // agent at work rather than its first requests, whose p99 is many times a warm one's
    // (docs/benchmarks.md, "Figures behind bounds in the code").
    const warm = await ctx.runOpenModel({
      arrivals: constantArrivals(p.legitRate, p.warmupMs),
      iteration: ctx.hitlRoundTrip({ client, resumeTimeoutMs: p.legitTimeoutMs }),
      maxInFlight: p.maxInFlight,
      iterationTimeoutMs: p.legitTimeoutMs,
      drainTimeoutMs: p.legitTimeoutMs,
    });
    const firstFailure = warm.firstFailure ? `; first failure: ${warm.firstFailure}` : '';
    ctx.log(`warm-up: ${warm.succeeded}/${warm.scheduled} round trips ok${firstFailure}`);
    assertReached(warm, 'the warm-up'); // no tax to measure on an agent the rig never reached
    run = await ctx.mixedRun(
      {
        attacks,
        target,
        legitRatePerSecond: p.legitRate,
        beforeMs: p.beforeMs,
        attackMs: p.attackMs,
        attackCapMs: p.attackCapMs,
        attackBursts: Math.max(1, Math.round(p.attackBursts)),
        // The first control is the before phase's tail and the last the after phase's head.
        controlMs: Math.min(p.controlMs, p.beforeMs, p.afterMs),
        afterMs: p.afterMs,
        legitTimeoutMs: p.legitTimeoutMs,
        maxInFlight: p.maxInFlight,
      },
      { client },
    );
  } finally {
    await sampler?.stop();
  }
  if (sampler) plotResources(ctx, sampler);
  judgeDosRun(ctx, run, p, sampler);
}
