// How a DoS family's mixed run (attackRun.ts) is recorded and judged: the legitimate traffic per
// phase, each attack's outcomes and verdicts (dosVerdicts.ts), its tax on the legitimate round trips,
// the agent's memory, and the recovery after the attacks. Each check is the rig's own gate, not a
// spec rule, so it keeps the default level MUST and fails the run as it always has (checkResult.ts).
import type { AttackOutcome } from '../../attack/attackTypes.ts';
import type { RecordedMeasures } from '../../results/metricNames.ts';
import { checkFailed } from '../../results/runResult.ts';
import type { ResourceSampler } from './agentResources.ts';
import { PHASES, type AttackRecord, type MixedRunResult } from './attackRun.ts';
import type { DosParams } from './dosParams.ts';
import {
  attackVerdicts,
  droppedPct,
  errorPct,
  judgeTax,
  phaseStats,
  recoveryMs,
  taxBoundMs,
  type PhaseStats,
} from './dosVerdicts.ts';
import type { ScenarioContext } from '../kit/scenarioContextInterface.ts';
import { millis, quantity } from '../../figures.ts';

/** Never recovering within the after phase is recorded as this many seconds, so any recovery_s threshold fails. */
export const NEVER_RECOVERED_S = 999_999;

/** What a DoS scenario declares as its `records`: every name judgeDosRun records. */
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

const OUTCOME_KINDS: readonly AttackOutcome['kind'][] = [
  'refused',
  'rate-limited',
  'cut',
  'accepted',
  'server-error',
  'held',
  'connect-failed',
];

const s = (ms: number) => Math.round(ms / 10) / 100;

export function plotResources(ctx: ScenarioContext, sampler: ResourceSampler): void {
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
  const why = notes.join('; ') || 'the attack said nothing why';
  ctx.note(`${name}: no hostile request was made (${why}); its checks are skipped`);
  return false;
}

/** The latencies of the ok round trips intended in [from, to), and how many were intended there. */
function intendedIn(run: MixedRunResult, from: number, to: number): { intended: number; ok: number[] } {
  const mine = run.samples.filter((x) => x.intendedAt >= from && x.intendedAt < to);
  return { intended: mine.length, ok: mine.filter((x) => x.outcome === 'ok').map((x) => x.latencyMs!) };
}

/**
 * One attack's tax (dosVerdicts.ts judgeTax): each burst against the control windows beside it.
 * Passed, failed, or not judged — the last never reads as a pass (ctx.notJudged).
 */
function judgeAttackTax(ctx: ScenarioContext, run: MixedRunResult, a: AttackRecord, p: DosParams): void {
  const bursts = a.bursts.map((b) => intendedIn(run, b.startedAt, b.stoppedAt));
  const controls = a.bursts.map((b) =>
    [b.controlBefore, b.controlAfter].flatMap((c) => intendedIn(run, c.from, c.to).ok),
  );
  const intended = bursts.reduce((t, b) => t + b.intended, 0);
  const span = `${a.bursts.length} burst(s) of ${s(a.bursts.reduce((t, b) => t + b.stoppedAt - b.startedAt, 0))} s`;
  if (intended === 0)
    return ctx.note(
      `${a.name}: its tax is not measured: no legitimate round trip was intended in its ${span} ` +
        '(raise legitRate or attackMs)',
    );
  if (bursts.every((b) => b.ok.length === 0))
    return void ctx.check(
      `${a.name}: legitimate round trips completed while it ran (its attack tax measured)`,
      false,
      `${intended} intended in its ${span}, none ok`,
    );
  const tax = judgeTax(
    bursts.map((b, i) => ({ burst: b.ok, control: controls[i]! })),
    p,
  );
  if (tax.estimate !== undefined && Number.isFinite(tax.estimate))
    ctx.count('attack_tax', Math.round(tax.estimate * 100) / 100, { attack: a.name });
  ctx.log(`${a.name}: ${tax.detail}: ${tax.outcome}`);
  const name =
    `${a.name}: attack tax — legitimate round-trip ${tax.stat ?? 'latency'} in its bursts ÷ in the control ` +
    `windows beside them ≤ max(${p.maxTax}, 1 + ${p.taxFloorMs} ms ÷ the controls'), 95 % interval`;
  if (tax.outcome === 'not judged')
    ctx.notJudged(name, tax.stat ? `${tax.detail}: the interval straddles the bound` : tax.detail);
  else ctx.check(name, tax.outcome === 'passed', tax.detail);
}

type PhaseTable = Record<(typeof PHASES)[number], PhaseStats>;

/** Each phase's legitimate arrivals, errors and drops, counted and logged. */
function recordPhases(ctx: ScenarioContext, stats: PhaseTable): void {
  for (const phase of PHASES) {
    const st = stats[phase];
    ctx.count('legit_arrivals', st.arrivals, { phase });
    ctx.count('legit_errors', st.failed + st.unfinished, { phase });
    ctx.count('legit_dropped', st.dropped, { phase });
    const latency = `p50 ${millis(st.p50Ms ?? 0)} ms, p99 ${millis(st.p99Ms ?? 0)} ms`;
    const ends = `${st.failed} failed, ${st.unfinished} unfinished, ${st.dropped} dropped`;
    const firstFailure = st.firstFailure ? `; first failure: ${st.firstFailure}` : '';
    ctx.log(`legitimate ${phase}: ${st.ok}/${st.arrivals} ok, ${latency}, ${ends}${firstFailure}`);
  }
}

/** One attack's outcomes counted by kind, and the latency of each refusal. */
function recordOutcomes(ctx: ScenarioContext, a: AttackRecord): void {
  // Every kind, 0 when none: a threshold such as attack_outcomes{attack=slowloris,outcome=held}==0
  // measures a 0, not nothing.
  for (const outcome of OUTCOME_KINDS) ctx.count('attack_outcomes', 0, { attack: a.name, outcome });
  for (const o of a.outcomes) {
    ctx.count('attack_outcomes', 1, { attack: a.name, outcome: o.kind });
    if (o.kind === 'refused' || o.kind === 'rate-limited' || o.kind === 'cut')
      ctx.latency('attack_refusal', { attack: a.name }).recordMs(o.latencyMs, o.startedAt + o.latencyMs);
  }
}

/** Each attack's outcomes and verdicts; the scenario is skipped when none could be judged and none failed. */
function judgeAttacks(ctx: ScenarioContext, run: MixedRunResult, p: DosParams): void {
  let judged = 0;
  for (const a of run.attacks) {
    recordOutcomes(ctx, a);
    if (a.error) {
      // An attack that threw never reached the agent's verdict (its refusals are outcomes, not
      // errors): the rig could not run it, which says nothing of the agent.
      ctx.notJudged(`${a.name}: the attack ran`, `the rig could not run it: ${a.error}`);
      continue;
    }
    if (!aimed(ctx, a.name, a.outcomes, a.report?.notes ?? [])) continue;
    judged++;
    for (const v of attackVerdicts(a.name, a.outcomes, p)) ctx.check(v.name, v.ok, v.detail);
  }
  if (judged === 0 && !ctx.checks.some(checkFailed))
    ctx.skip(`no attack could be aimed at this agent: ${ctx.notes.join('; ')}`);
}

/** The baseline check, then (when there is one) the overall tax and each attack's own. */
function judgeTaxes(ctx: ScenarioContext, run: MixedRunResult, p: DosParams, stats: PhaseTable): boolean {
  const before = stats.before.p99Ms;
  const during = stats.during.p99Ms;
  const baselineOk = ctx.check(
    'legitimate round trips completed before and during the attack (a baseline to measure against)',
    before !== undefined && during !== undefined,
    `before ${stats.before.ok}/${stats.before.arrivals} ok, during ${stats.during.ok}/${stats.during.arrivals} ok`,
  );
  if (baselineOk) {
    ctx.count('attack_tax_overall', Math.round((during! / before!) * 100) / 100);
    for (const a of run.attacks) {
      // An attack that could not be aimed (noted above) or did not run has no window to tax.
      if (!a.error && a.outcomes.length > 0) judgeAttackTax(ctx, run, a, p);
    }
  }
  return baselineOk;
}

/** The legitimate errors and drops, each bounded in every phase. */
function judgeErrors(ctx: ScenarioContext, p: DosParams, stats: PhaseTable): void {
  const worst = Math.max(...PHASES.map((ph) => errorPct(stats[ph])));
  ctx.count('legit_error_pct', Math.round(worst * 1000) / 1000);
  ctx.check(
    `legitimate errors ≤ ${p.maxErrorPct} % in every phase`,
    PHASES.every((ph) => errorPct(stats[ph]) <= p.maxErrorPct),
    PHASES.map((ph) => `${ph} ${quantity(errorPct(stats[ph]))} %`).join(', '),
  );
  ctx.check(
    `legitimate drops ≤ ${p.maxDroppedPct} % in every phase`,
    PHASES.every((ph) => droppedPct(stats[ph]) <= p.maxDroppedPct),
    PHASES.map((ph) => `${ph} ${quantity(droppedPct(stats[ph]))} %`).join(', '),
  );
}

/** The agent's RSS peak during the attack against its peak before it. */
function judgeMemory(
  ctx: ScenarioContext,
  run: MixedRunResult,
  p: DosParams,
  sampler: ResourceSampler | undefined,
): void {
  const rss = (from: number, to: number) =>
    (sampler?.points ?? [])
      .filter((pt) => pt.rssMb !== undefined && pt.at >= from && pt.at < to)
      .map((pt) => pt.rssMb!);
  const baseRss = rss(-Infinity, run.attackStartAt);
  const duringRss = rss(run.attackStartAt, run.attackStopAt + p.sampleMs);
  if (baseRss.length === 0 || duringRss.length === 0)
    return ctx.note(
      `agent memory not judged: ` +
        (sampler ? 'no RSS samples before and during the attack' : 'the agent is not sampled (see above)'),
    );
  const growth = Math.max(...duringRss) - Math.max(...baseRss);
  ctx.count('rss_growth_mb', Math.round(growth * 10) / 10);
  ctx.check(
    `agent memory bounded: RSS peak during the attack ≤ baseline + ${p.maxRssGrowthMb} MB`,
    growth <= p.maxRssGrowthMb,
    `baseline ${quantity(Math.max(...baseRss))} MB, peak ${quantity(Math.max(...duringRss))} MB ` +
      `(+${quantity(growth)} MB)`,
  );
}

export function judgeDosRun(
  ctx: ScenarioContext,
  run: MixedRunResult,
  p: DosParams,
  sampler: ResourceSampler | undefined,
): void {
  const stats = Object.fromEntries(PHASES.map((phase) => [phase, phaseStats(run.samples, phase)])) as PhaseTable;
  recordPhases(ctx, stats);
  // Attacks first: what the agent did with them is the finding even when the baseline is poor.
  judgeAttacks(ctx, run, p);
  const baselineOk = judgeTaxes(ctx, run, p, stats);
  const before = stats.before.p99Ms;
  const bound = before !== undefined ? taxBoundMs(before, p) : Infinity;
  judgeErrors(ctx, p, stats);
  judgeMemory(ctx, run, p, sampler);
  if (!run.aborted) judgeRecovery(ctx, run, p, baselineOk ? bound : undefined);
}

/**
 * The checks a busy machine may leave not judged on a correct agent (each compares with a control
 * and an interval); any other check not judged is a finding.
 */
export const LOAD_MAY_LEAVE_UNJUDGED = /^[a-z0-9-]+: attack tax — |^legitimate traffic recovers within /;

/**
 * Recovery (dosVerdicts.ts recoveryMs): a window all ok with p99 within the tax bound, within
 * maxRecoveryS of the stop. A window holds a few round trips, so its p99 is its slowest one, which a
 * single scheduling delay of a busy machine sets. So when no window recovered in time but every
 * round trip in those windows succeeded, they are compared with the before phase as the tax is
 * (judgeTax, 95 % interval): failed only when surely slower beyond the bound, otherwise not judged.
 * `bound` is undefined when there was no baseline to measure against (failed, as that check is).
 */
function judgeRecovery(ctx: ScenarioContext, run: MixedRunResult, p: DosParams, bound: number | undefined): void {
  const lastArrival = Math.max(...run.samples.map((x) => x.intendedAt));
  const recovered =
    bound === undefined
      ? undefined
      : recoveryMs(run.samples, run.attackStopAt, lastArrival + 1000 / p.legitRate, p.recoveryWindowMs, bound);
  ctx.count('recovery_s', recovered === undefined ? NEVER_RECOVERED_S : s(recovered));
  const name =
    `legitimate traffic recovers within ${p.maxRecoveryS} s of the attack's end ` +
    `(a ${p.recoveryWindowMs} ms window all ok with p99 ≤ the tax bound)`;
  const limitMs = p.maxRecoveryS * 1000;
  if (recovered !== undefined && recovered <= limitMs)
    return void ctx.check(name, true, `recovered ${s(recovered)} s after the attack stopped`);
  const when =
    recovered === undefined
      ? `never within the ${s(run.endAt - run.attackStopAt)} s after the attack`
      : `recovered ${s(recovered)} s after the attack stopped`;
  const after = intendedIn(run, run.attackStopAt, run.attackStopAt + limitMs + p.recoveryWindowMs);
  if (bound === undefined || after.ok.length === 0 || after.ok.length < after.intended)
    return void ctx.check(name, false, `${when}; ${after.ok.length} of ${after.intended} round trips ok in time`);
  const before = run.samples.filter((x) => x.phase === 'before' && x.outcome === 'ok').map((x) => x.latencyMs!);
  const slower = judgeTax([{ burst: after.ok, control: before }], p);
  if (slower.outcome === 'failed')
    return void ctx.check(name, false, `${when}; after it ÷ before it: ${slower.detail}`);
  ctx.notJudged(
    name,
    `${when}, but all ${after.intended} round trips in time succeeded and are not slower than before it ` +
      `beyond the bound with 95 % confidence (${slower.detail}): a busy machine cannot be told from a slow recovery`,
  );
}
