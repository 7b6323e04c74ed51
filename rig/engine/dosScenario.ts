// What the six DoS scenarios (scenarios/dos/) share: their records, their gate params, and the run
// of one family's attacks in one mixed run (attackRun.ts), judged by dosVerdicts.ts. A scenario file
// names its family, its attacks and its sizes; everything else is here so the six judge alike.
import { readFileSync } from 'node:fs';
import type { AttackOutcome } from '../attack/attackTypes.ts';
import { ATTACKS, type AttackName } from '../attack/attackRegistry.ts';
import type { RecordedMeasures } from '../results/metricNames.ts';
import { constantArrivals } from '../load/arrivalSchedule.ts';
import { ResourceSampler } from './agentResources.ts';
import { PHASES, type MixedRunResult, type PlannedAttack } from './attackRun.ts';
import {
  attackVerdicts,
  droppedPct,
  errorPct,
  percentile,
  phaseStats,
  recoveryMs,
  taxBoundMs,
  type GateParams,
} from './dosVerdicts.ts';
import type { ScenarioContext } from './scenarioContextInterface.ts';

/** Per attack: starts per second, at most this many, and its own params over its defaults. */
export type AttackChoice = { rate: number; max: number } & Record<string, number | string | boolean>;

export interface DosParams extends GateParams {
  /** Legitimate HITL round trips started per second through the proxy (every phase). */
  legitRate: number;
  beforeMs: number;
  /** The attacks start for this long; the during phase lasts until they settle (at most attackCapMs). */
  attackMs: number;
  attackCapMs: number;
  afterMs: number;
  /** One legitimate round trip's bound (its resume wait included). */
  legitTimeoutMs: number;
  maxInFlight: number;
  connections: number;
  /** The attacks' loopback source address. */
  sourceAddress: string;
  /** Legitimate round trips before the run, not recorded (at legitRate). */
  warmupMs: number;
  /** Every this many ms the agent's RSS, CPU and connections are sampled. */
  sampleMs: number;
  /** `--param dos-slow.attacks='{"slowloris":{"rate":5,"max":20}}'` replaces the whole object. */
  attacks: Record<string, AttackChoice>;
}

/** Never recovering within the after phase is recorded as this many seconds, so any recovery_s threshold fails. */
export const NEVER_RECOVERED_S = 999_999;

export const DOS_RECORDS: RecordedMeasures = {
  latencies: ['legit_round_trip{phase}', 'legit_resume{phase}', 'attack_refusal{attack}'],
  counters: {
    'legit_arrivals{phase}': 'tally',
    'legit_errors{phase}': 'tally',
    'legit_dropped{phase}': 'tally',
    'attack_outcomes{attack,outcome}': 'tally',
    'attack_tax{attack}': 'measure',
    attack_tax_overall: 'measure',
    legit_error_pct: 'measure',
    rss_growth_mb: 'measure',
    recovery_s: 'measure',
  },
};

/** The gate defaults every family shares (a scenario may change any). */
export const GATE_DEFAULTS: GateParams = {
  maxTax: 2,
  taxFloorMs: 50,
  maxErrorPct: 0.1,
  maxDroppedPct: 0.1,
  maxRefusalP99Ms: 1_000,
  maxCutMs: 20_000,
  maxRssGrowthMb: 128,
  maxRecoveryS: 5,
  recoveryWindowMs: 1_000,
  minShed: 1,
  maxShedMs: 1_000,
};

export const LEGIT_DEFAULTS = {
  legitRate: 10,
  warmupMs: 1_000,
  legitTimeoutMs: 5_000,
  maxInFlight: 64,
  connections: 16,
  sourceAddress: '127.0.0.2',
  sampleMs: 250,
};

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

const OUTCOME_KINDS: readonly AttackOutcome['kind'][] = [
  'refused',
  'rate-limited',
  'cut',
  'accepted',
  'server-error',
  'held',
  'connect-failed',
];

const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
const s = (ms: number) => Math.round(ms / 10) / 100;

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
    planned.push({ name, attack, params: { ...attack.defaults, ...own }, ratePerSecond: rate, maxRequests: max });
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
    // agent at work rather than its first requests (measured: 200-300 ms p99 cold, 30 ms warm).
    const warm = await ctx.runOpenModel({
      arrivals: constantArrivals(p.legitRate, p.warmupMs),
      iteration: ctx.hitlRoundTrip({ client, resumeTimeoutMs: p.legitTimeoutMs }),
      maxInFlight: p.maxInFlight,
      iterationTimeoutMs: p.legitTimeoutMs,
      drainTimeoutMs: p.legitTimeoutMs,
    });
    ctx.log(
      `warm-up: ${warm.succeeded}/${warm.scheduled} round trips ok${warm.firstFailure ? `; first failure: ${warm.firstFailure}` : ''}`,
    );
    run = await ctx.mixedRun(
      {
        attacks,
        target,
        legitRatePerSecond: p.legitRate,
        beforeMs: p.beforeMs,
        attackMs: p.attackMs,
        attackCapMs: p.attackCapMs,
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
  judge(ctx, run, p, sampler);
}

function plotResources(ctx: ScenarioContext, sampler: ResourceSampler): void {
  for (const point of sampler.points) {
    const x = Math.round(point.at - ctx.startedAt) / 1000;
    if (point.rssMb !== undefined) ctx.plot('agent_rss_mb_vs_s', { x, y: Math.round(point.rssMb * 10) / 10 });
    if (point.cpuPct !== undefined) ctx.plot('agent_cpu_pct_vs_s', { x, y: Math.round(point.cpuPct) });
    if (point.connections !== undefined) ctx.plot('agent_connections_vs_s', { x, y: point.connections });
  }
  if (sampler.failures > 0) ctx.log(`${sampler.failures} resource sample(s) failed; last: ${sampler.lastError}`);
}

/** Outcomes of attacks that could not be aimed (started nothing, said why) are a part skipped, not a pass. */
function aimed(ctx: ScenarioContext, name: string, outcomes: AttackOutcome[], notes: string[]): boolean {
  if (outcomes.length > 0) {
    for (const note of notes) ctx.log(`${name}: ${note}`);
    return true;
  }
  ctx.note(
    `${name}: no hostile request was made (${notes.join('; ') || 'the attack said nothing why'}); its checks are skipped`,
  );
  return false;
}

function judge(ctx: ScenarioContext, run: MixedRunResult, p: DosParams, sampler: ResourceSampler | undefined): void {
  const stats = Object.fromEntries(PHASES.map((phase) => [phase, phaseStats(run.samples, phase)])) as Record<
    (typeof PHASES)[number],
    ReturnType<typeof phaseStats>
  >;
  for (const phase of PHASES) {
    const st = stats[phase];
    ctx.count('legit_arrivals', st.arrivals, { phase });
    ctx.count('legit_errors', st.failed + st.unfinished, { phase });
    ctx.count('legit_dropped', st.dropped, { phase });
    ctx.log(
      `legitimate ${phase}: ${st.ok}/${st.arrivals} ok, p50 ${f(st.p50Ms ?? 0)} ms, p99 ${f(st.p99Ms ?? 0)} ms, ${st.failed} failed, ${st.unfinished} unfinished, ${st.dropped} dropped${st.firstFailure ? `; first failure: ${st.firstFailure}` : ''}`,
    );
  }
  // Attacks first: what the agent did with them is the finding even when the baseline is poor.
  let judged = 0;
  for (const a of run.attacks) {
    // Every kind, 0 when none: a threshold such as attack_outcomes{attack=slowloris,outcome=held}==0 measures a 0, not nothing.
    for (const outcome of OUTCOME_KINDS) ctx.count('attack_outcomes', 0, { attack: a.name, outcome });
    for (const o of a.outcomes) {
      ctx.count('attack_outcomes', 1, { attack: a.name, outcome: o.kind });
      if (o.kind === 'refused' || o.kind === 'rate-limited' || o.kind === 'cut')
        ctx.latency('attack_refusal', { attack: a.name }).recordMs(o.latencyMs, o.startedAt + o.latencyMs);
    }
    if (a.error) {
      ctx.check(`${a.name}: the attack ran`, false, a.error);
      continue;
    }
    if (!aimed(ctx, a.name, a.outcomes, a.report?.notes ?? [])) continue;
    judged++;
    for (const v of attackVerdicts(a.name, a.outcomes, p)) ctx.check(v.name, v.ok, v.detail);
  }
  if (judged === 0 && !ctx.checks.some((c) => !c.ok))
    ctx.skip(`no attack could be aimed at this agent: ${ctx.notes.join('; ')}`);

  const before = stats.before.p99Ms;
  const during = stats.during.p99Ms;
  const baselineOk = ctx.check(
    'legitimate round trips completed before and during the attack (a baseline to measure against)',
    before !== undefined && during !== undefined,
    `before ${stats.before.ok}/${stats.before.arrivals} ok, during ${stats.during.ok}/${stats.during.arrivals} ok`,
  );
  const bound = before !== undefined ? taxBoundMs(before, p) : Infinity;
  if (baselineOk) {
    ctx.count('attack_tax_overall', Math.round((during! / before!) * 100) / 100);
    // Per attack: the legitimate round trips intended while that attack alone was running (attackRun.ts).
    for (const a of run.attacks) {
      // An attack that could not be aimed (noted above) or did not run has no window to tax.
      if (a.error || a.outcomes.length === 0) continue;
      const intended = run.samples.filter((x) => x.intendedAt >= a.startedAt && x.intendedAt < a.stoppedAt);
      const mine = intended.filter((x) => x.outcome === 'ok').map((x) => x.latencyMs!);
      const p99 = percentile(mine, 99);
      if (intended.length === 0) {
        ctx.note(
          `${a.name}: its tax is not measured: no legitimate round trip was intended in its ${s(a.stoppedAt - a.startedAt)} s window (raise legitRate or attackMs)`,
        );
        continue;
      }
      if (p99 === undefined) {
        ctx.check(
          `${a.name}: legitimate round trips completed while it ran (its attack tax measured)`,
          false,
          `${intended.length} intended in its ${s(a.stoppedAt - a.startedAt)} s window, none ok`,
        );
        continue;
      }
      const tax = p99 / before!;
      ctx.count('attack_tax', Math.round(tax * 100) / 100, { attack: a.name });
      ctx.check(
        `${a.name}: attack tax — legitimate round-trip p99 while it ran ≤ max(${p.maxTax} × before, before + ${p.taxFloorMs} ms)`,
        p99 <= bound,
        `p99 before ${f(before!)} ms, while ${a.name} ran ${f(p99)} ms (n=${mine.length}): tax ${f(tax)}× (bound ${f(bound)} ms)`,
      );
    }
  }
  const worst = Math.max(...PHASES.map((ph) => errorPct(stats[ph])));
  ctx.count('legit_error_pct', Math.round(worst * 1000) / 1000);
  ctx.check(
    `legitimate errors ≤ ${p.maxErrorPct} % in every phase`,
    PHASES.every((ph) => errorPct(stats[ph]) <= p.maxErrorPct),
    PHASES.map((ph) => `${ph} ${f(errorPct(stats[ph]))} %`).join(', '),
  );
  ctx.check(
    `legitimate drops ≤ ${p.maxDroppedPct} % in every phase`,
    PHASES.every((ph) => droppedPct(stats[ph]) <= p.maxDroppedPct),
    PHASES.map((ph) => `${ph} ${f(droppedPct(stats[ph]))} %`).join(', '),
  );

  const rss = (from: number, to: number) =>
    (sampler?.points ?? [])
      .filter((pt) => pt.rssMb !== undefined && pt.at >= from && pt.at < to)
      .map((pt) => pt.rssMb!);
  const baseRss = rss(-Infinity, run.attackStartAt);
  const duringRss = rss(run.attackStartAt, run.attackStopAt + p.sampleMs);
  if (baseRss.length === 0 || duringRss.length === 0)
    ctx.note(
      `agent memory not judged: ${sampler ? 'no RSS samples before and during the attack' : 'the agent is not sampled (see above)'}`,
    );
  else {
    const growth = Math.max(...duringRss) - Math.max(...baseRss);
    ctx.count('rss_growth_mb', Math.round(growth * 10) / 10);
    ctx.check(
      `agent memory bounded: RSS peak during the attack ≤ baseline + ${p.maxRssGrowthMb} MB`,
      growth <= p.maxRssGrowthMb,
      `baseline ${f(Math.max(...baseRss))} MB, peak ${f(Math.max(...duringRss))} MB (+${f(growth)} MB)`,
    );
  }

  if (run.aborted) return;
  const lastArrival = Math.max(...run.samples.map((x) => x.intendedAt));
  const recovered = baselineOk
    ? recoveryMs(run.samples, run.attackStopAt, lastArrival + 1000 / p.legitRate, p.recoveryWindowMs, bound)
    : undefined;
  ctx.count('recovery_s', recovered === undefined ? NEVER_RECOVERED_S : s(recovered));
  ctx.check(
    `legitimate traffic recovers within ${p.maxRecoveryS} s of the attack's end (a ${p.recoveryWindowMs} ms window all ok with p99 ≤ the tax bound)`,
    recovered !== undefined && recovered <= p.maxRecoveryS * 1000,
    recovered === undefined
      ? `never within the ${s(run.endAt - run.attackStopAt)} s after the attack`
      : `recovered ${s(recovered)} s after the attack stopped`,
  );
}

/** Phase lengths per profile for the families whose attacks settle at once (slow ones set their own). */
export const PHASE_SIZES = {
  smoke: { beforeMs: 3_000, attackMs: 2_000, attackCapMs: 8_000, afterMs: 4_000 },
  ci: { beforeMs: 5_000, attackMs: 10_000, attackCapMs: 20_000, afterMs: 10_000 },
  full: { beforeMs: 15_000, attackMs: 60_000, attackCapMs: 80_000, afterMs: 20_000 },
} as const;

/**
 * The params of one profile: shared legit and gate defaults, the phase sizes, the attacks' own
 * choices, and any override of the scenario. The tax floor is the noise of a small shared box:
 * with the rig, its attack, the proxy and the agent on 2 cores, the p99 of a smoke phase (30-80
 * round trips, so about the slowest) moved by 50-150 ms under a harmless attack (measured: idle
 * connections shed at once, p99 10-37 ms before, 88-147 ms during). Smoke's floor is 250 ms, which
 * a real denial of service (seconds) still breaks; ci 100 ms over 20/s; full 50 ms over 40/s.
 * Smoke's recovery bound is shorter to fit its after phase.
 */
export function dosProfile(
  profile: 'smoke' | 'ci' | 'full',
  attacks: Record<string, AttackChoice>,
  overrides: Partial<DosParams> = {},
): DosParams {
  const bySize =
    profile === 'smoke'
      ? { taxFloorMs: 250, maxRecoveryS: 3 }
      : profile === 'ci'
        ? { legitRate: 20, warmupMs: 2_000, taxFloorMs: 100 }
        : { legitRate: 40, warmupMs: 2_000 };
  return { ...GATE_DEFAULTS, ...LEGIT_DEFAULTS, ...PHASE_SIZES[profile], ...bySize, attacks, ...overrides };
}

/** The soft limit on open files of the rig (Linux /proc/self/limits; 1024 when unknown), which bounds how many sockets an attack may hold. */
export function openFilesSoftLimit(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : 1024;
  } catch {
    return 1024;
  }
}

/** A budget that fits the whole mixed run: before, each attack's cap (they run one after another), after, the legit drain, and 10 s for setup and teardown. */
export const dosBudget = (p: DosParams, attacks = Object.keys(p.attacks).length) =>
  p.warmupMs + p.beforeMs + p.attackCapMs * Math.max(1, attacks) + p.afterMs + p.legitTimeoutMs + 10_000;
