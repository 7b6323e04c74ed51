// What a mixed run (attackRun.ts) proves: the gates of the DoS scenarios, pure functions of its
// samples so each is tested exactly. Definitions (every bound is a scenario param):
// - p99: nearest rank over the phase's successful round trips (intended start → resume observed).
// - Attack tax (judgeTax) = stat(round trips intended during an attack's bursts) / stat(those
//   intended in the control windows beside them), with a paired-bootstrap 95 % interval over the
//   bursts; the bound as a ratio is max(maxTax, 1 + taxFloorMs / stat(controls)). The statistic is
//   the highest of p99, p90, p50 both sides carry. Failed when the interval is all above the bound,
//   passed when all at or below it, otherwise not judged.
// - The recovery bound (taxBoundMs) = max(maxTax × before p99, before p99 + taxFloorMs).
// - Error rate per phase = (failed + unfinished) / arrivals ≤ maxErrorPct %; drops (arrivals that
//   never started: no slot) / arrivals ≤ maxDroppedPct %.
// - Recovery: windows of recoveryWindowMs from the attack's stop (window k holds the arrivals
//   intended in its k-th window); the first all ok with p99 ≤ the tax bound ends it.
// - Holding attacks (idle connections, unread streams): a bound shows as connections or streams
//   shed: refused or rate-limited (whenever), or cut or reset at connect within maxShedMs of their start.
// - Memory: RSS peak during the attack − the baseline (the highest RSS sampled before it) ≤ maxRssGrowthMb.
import type { AttackOutcome } from '../../attack/attackTypes.ts';
import { ratioIntervals, statOf, type StatName } from '../../stats/ratioInterval.ts';
import { sampleOf } from '../../stats/sampleSet.ts';
import type { LegitSample, Phase } from './attackRun.ts';
import { millis, ratio, ratioWithin } from '../../figures.ts';

export interface GateParams {
  maxTax: number;
  taxFloorMs: number;
  maxErrorPct: number;
  maxDroppedPct: number;
  maxRefusalP99Ms: number;
  /** Slow attacks: a slow request or connection cut (or refused) within this. */
  maxCutMs: number;
  maxRssGrowthMb: number;
  maxRecoveryS: number;
  recoveryWindowMs: number;
  /** Holding attacks (idle connections, unread streams): at least this many shed beyond the agent's bound... */
  minShed: number;
  /**
   * ...each within this many ms of its start: a bound sheds at once, where a missing one leaves only the
   * agent's timeouts to cut later.
   */
  maxShedMs: number;
}

/** Nearest-rank percentile of `values` (unsorted); undefined when empty. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface PhaseStats {
  arrivals: number;
  ok: number;
  failed: number;
  unfinished: number;
  dropped: number;
  p50Ms?: number;
  p99Ms?: number;
  firstFailure?: string;
}

export function phaseStats(samples: readonly LegitSample[], phase: Phase): PhaseStats {
  const mine = samples.filter((s) => s.phase === phase);
  const latencies = mine.filter((s) => s.outcome === 'ok').map((s) => s.latencyMs!);
  const count = (o: LegitSample['outcome']) => mine.filter((s) => s.outcome === o).length;
  const firstFailure = mine.find((s) => s.failure)?.failure;
  return {
    arrivals: mine.length,
    ok: latencies.length,
    failed: count('failed'),
    unfinished: count('unfinished'),
    dropped: count('dropped'),
    ...(latencies.length ? { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) } : {}),
    ...(firstFailure ? { firstFailure } : {}),
  };
}

/** The highest p99 the legitimate traffic may show under (and after) attack. */
export function taxBoundMs(beforeP99Ms: number, p: Pick<GateParams, 'maxTax' | 'taxFloorMs'>): number {
  return Math.max(p.maxTax * beforeP99Ms, beforeP99Ms + p.taxFloorMs);
}

/** ms from the stop to the first healthy window (see the header), or undefined: never within the after phase. */
export function recoveryMs(
  samples: readonly LegitSample[],
  stopAt: number,
  lastArrivalAt: number,
  windowMs: number,
  boundMs: number,
): number | undefined {
  for (let k = 0; stopAt + (k + 1) * windowMs <= lastArrivalAt + 1e-6; k++) {
    const from = stopAt + k * windowMs;
    const window = samples.filter((s) => s.intendedAt >= from && s.intendedAt < from + windowMs);
    if (window.length === 0 || window.some((s) => s.outcome !== 'ok')) continue;
    const p99 = percentile(
      window.map((s) => s.latencyMs!),
      99,
    )!;
    if (p99 <= boundMs) return k * windowMs;
  }
  return undefined;
}

export const errorPct = (s: PhaseStats) => (s.arrivals === 0 ? 0 : ((s.failed + s.unfinished) * 100) / s.arrivals);
export const droppedPct = (s: PhaseStats) => (s.arrivals === 0 ? 0 : (s.dropped * 100) / s.arrivals);

/** How an attack is judged: by its refusals (request attacks), its cuts (slow), or its shedding (holding attacks). */
export type AttackStyle = 'request' | 'http-refusal' | 'slow' | 'holding';

/** Per-attack expectations, by the fixed names (rig/attack/attackRegistry.ts). */
export const ATTACK_STYLES: Record<string, AttackStyle> = {
  'oversized-answer': 'http-refusal',
  'huge-headers': 'http-refusal',
  'deep-answer': 'request',
  'pattern-backtracking': 'request',
  'duplicate-answers': 'request',
  'unknown-prompt': 'request',
  'malformed-json': 'request',
  'bad-utf8': 'request',
  'slow-body': 'slow',
  slowloris: 'slow',
  'idle-connections': 'holding',
  'unread-streams': 'holding',
  'unread-replay': 'holding',
};

export interface Verdict {
  name: string;
  ok: boolean;
  detail: string;
}

const REFUSALS = new Set<AttackOutcome['kind']>(['refused', 'rate-limited', 'cut']);

/** One attack's outcomes, as each verdict on them reads them. */
interface AttackRun {
  name: string;
  outcomes: readonly AttackOutcome[];
  p: GateParams;
}

type VerdictRule = (a: AttackRun) => Verdict;

const ofKind = (a: AttackRun, kind: AttackOutcome['kind']) => a.outcomes.filter((o) => o.kind === kind);
const firstOf = (os: AttackOutcome[]) =>
  os[0] ? `; first: ${os[0].detail ?? (os[0].status ? `HTTP ${os[0].status}` : os[0].kind)}` : '';
const refusalLatencies = (a: AttackRun) => a.outcomes.filter((o) => REFUSALS.has(o.kind)).map((o) => o.latencyMs);

const noServerErrors: VerdictRule = (a) => {
  const serverErrors = ofKind(a, 'server-error');
  return {
    name: `${a.name}: no 5xx to attack requests`,
    ok: serverErrors.length === 0,
    detail: `${serverErrors.length} of ${a.outcomes.length} answered 5xx${firstOf(serverErrors)}`,
  };
};

const shedsBeyondBound: VerdictRule = (a) => {
  const { name, outcomes, p } = a;
  const accepted = ofKind(a, 'accepted');
  // An agent at its bound may reset a connection during the handshake: connect-failed is shed too.
  const shedding = (o: AttackOutcome) => REFUSALS.has(o.kind) || o.kind === 'connect-failed';
  // A refusal is the bound at work whenever it comes (a loaded box delays it, and no timer may turn
  // it into a failure); a cut counts only at once: a cut later is a timeout, not a bound.
  const atOnce = (o: AttackOutcome) => o.kind === 'refused' || o.kind === 'rate-limited' || o.latencyMs <= p.maxShedMs;
  const shed = outcomes.filter((o) => shedding(o) && atOnce(o)).length;
  const later = outcomes.filter(shedding).length - shed;
  return {
    name:
      `${name}: the agent sheds beyond its bound ` +
      `(≥ ${p.minShed} refused or rate-limited, or cut within ${p.maxShedMs} ms)`,
    ok: shed >= p.minShed && accepted.length === 0,
    detail:
      `${shed} shed at once, ${later} cut later, ${ofKind(a, 'held').length} held, ` +
      `${accepted.length} accepted, of ${outcomes.length}`,
  };
};

const everyRefused: VerdictRule = (a) => {
  const n = a.outcomes.length;
  const accepted = ofKind(a, 'accepted');
  const held = ofKind(a, 'held');
  // A request that could not even connect proves nothing about refusing it (the agent may be down).
  const unreached = ofKind(a, 'connect-failed');
  const refusedN = refusalLatencies(a).length;
  return {
    name: `${a.name}: every attack request refused (refused, cut or rate-limited; none accepted, held or unconnected)`,
    ok: refusedN === n && n > 0,
    detail:
      `${refusedN} of ${n} refused (${ofKind(a, 'rate-limited').length} rate-limited), ${accepted.length} accepted, ` +
      `${held.length} held, ${unreached.length} could not connect, ${ofKind(a, 'server-error').length} 5xx` +
      firstOf([...accepted, ...held, ...unreached]),
  };
};

const cutInTime: VerdictRule = (a) => {
  const refusalMs = refusalLatencies(a);
  const held = ofKind(a, 'held');
  const slowest = refusalMs.length ? Math.max(...refusalMs) : undefined;
  return {
    name: `${a.name}: cut within ${a.p.maxCutMs} ms`,
    ok: slowest !== undefined && slowest <= a.p.maxCutMs && held.length === 0,
    detail:
      slowest === undefined
        ? 'none cut'
        : `slowest cut ${millis(slowest)} ms, ${held.length} held past the attack's bound`,
  };
};

const refusalP99: VerdictRule = (a) => {
  const refusalMs = refusalLatencies(a);
  const p99 = percentile(refusalMs, 99);
  return {
    name: `${a.name}: refusal p99 ≤ ${a.p.maxRefusalP99Ms} ms`,
    ok: p99 !== undefined && p99 <= a.p.maxRefusalP99Ms,
    detail: p99 === undefined ? 'nothing refused' : `p99 ${millis(p99)} ms over ${refusalMs.length} refusals`,
  };
};

const refusedUnread: VerdictRule = ({ name, outcomes }) => {
  // A JSON-RPC error (HTTP 200) means the agent read and parsed what it should have refused unread.
  // So does a refusal that came only after the attack had sent the whole body (beforeBodyEnd false).
  const late = outcomes.filter(
    (o) => (o.kind === 'refused' && (o.status === undefined || o.status < 400)) || o.beforeBodyEnd === false,
  );
  // The name says what fails it: a 413 that came only once the whole body was sent fails too.
  const when = (o: AttackOutcome) => (o.beforeBodyEnd === false ? ' after the whole request was sent' : '');
  return {
    name:
      `${name}: refused before the whole request is sent ` +
      `(an HTTP 4xx or a cut before the body's end; not a JSON-RPC reply, not a refusal after the body)`,
    ok: late.length === 0,
    detail:
      `${late.length} of ${outcomes.length} answered after reading it (a JSON-RPC reply, or a refusal once ` +
      `the whole request was sent)${firstOf(late)}${late[0] ? when(late[0]) : ''}`,
  };
};

/** The checks each style of attack gets, in the order they are recorded. */
const STYLE_VERDICTS: Record<AttackStyle, readonly VerdictRule[]> = {
  holding: [noServerErrors, shedsBeyondBound],
  slow: [noServerErrors, everyRefused, cutInTime],
  request: [noServerErrors, everyRefused, refusalP99],
  'http-refusal': [noServerErrors, everyRefused, refusalP99, refusedUnread],
};

/** The checks on one attack's outcomes (5xx, acceptance, refusal speed or cut, shedding). */
export function attackVerdicts(name: string, outcomes: readonly AttackOutcome[], p: GateParams): Verdict[] {
  const run: AttackRun = { name, outcomes, p };
  return STYLE_VERDICTS[ATTACK_STYLES[name] ?? 'request'].map((rule) => rule(run));
}

/**
 * One burst of an attack as the tax reads it: the latencies of the legitimate round trips intended
 * during the burst, and of those intended in the control windows beside it (before and after, pooled).
 */
export interface TaxWindow {
  burst: readonly number[];
  control: readonly number[];
}

export interface TaxJudgement {
  /** Not judged: the interval straddles the bound, or the samples cannot carry any statistic. */
  outcome: 'passed' | 'failed' | 'not judged';
  /** The statistic compared (p99, p90 or p50), absent when none could be. */
  stat?: StatName;
  estimate?: number;
  lo?: number;
  hi?: number;
  /** The bound as a ratio: max(maxTax, 1 + taxFloorMs / the controls' stat). */
  threshold?: number;
  /** Bursts with round trips on both sides (the pairs bootstrapped). */
  bursts: number;
  nBurst: number;
  nControl: number;
  /** One line: the tax, its interval, the statistic, the samples and the bound (or why none). */
  detail: string;
}

/**
 * Samples per side a statistic needs to be bootstrapped: three beyond it (p99 300, p90 30, p50 6).
 * Not the reports' rule (sampleSize.ts, one sample's own interval): the tax's interval is the
 * paired bootstrap over bursts, which carries the spread between windows itself.
 */
const TAX_STATS = [99, 90, 50] as const;
export const taxSamplesNeeded = (p: number) => 3 * Math.ceil(100 / (100 - p) - 1e-9);

/** The highest percentile both sides carry (see taxSamplesNeeded), or undefined. */
export function taxStatistic(nBurst: number, nControl: number): StatName | undefined {
  const p = TAX_STATS.find((q) => Math.min(nBurst, nControl) >= taxSamplesNeeded(q));
  return p === undefined ? undefined : `p${p}`;
}

/**
 * The attack tax of one attack: stat(bursts) / stat(controls) with a 95 % interval from a paired
 * bootstrap over its bursts (burst i drawn with its own controls), so what slowed the machine alike
 * in a burst and beside it — a neighbour's CPU — cancels out. Failed only when the whole interval
 * is above the bound, passed only when it is all at or below it; otherwise not judged.
 */
export function judgeTax(
  windows: readonly TaxWindow[],
  p: Pick<GateParams, 'maxTax' | 'taxFloorMs'>,
  seed = 1,
): TaxJudgement {
  const pairs = windows.filter((w) => w.burst.length > 0 && w.control.length > 0);
  const nBurst = pairs.reduce((t, w) => t + w.burst.length, 0);
  const nControl = pairs.reduce((t, w) => t + w.control.length, 0);
  const sizes = { bursts: pairs.length, nBurst, nControl };
  const n = `n=${nBurst}/${nControl}`;
  const stat = taxStatistic(nBurst, nControl);
  if (stat === undefined)
    return {
      outcome: 'not judged',
      ...sizes,
      detail:
        `too few round trips to compare (${n} over ${pairs.length} bursts; ` +
        `p50 needs ${taxSamplesNeeded(50)} a side)`,
    };
  const control = pairs.map((w) => sampleOf([...w.control]));
  const burst = pairs.map((w) => sampleOf([...w.burst]));
  const { estimate, lo, hi } = ratioIntervals(control, burst, [stat], { paired: true, seed })[0]!;
  const threshold = Math.max(p.maxTax, 1 + p.taxFloorMs / statOf(control, stat));
  // NaN bounds (a control's stat of 0 in every replicate) judge nothing.
  const outcome = !(lo <= hi) ? 'not judged' : lo > threshold ? 'failed' : hi <= threshold ? 'passed' : 'not judged';
  const interval = `tax ${ratioWithin(estimate, lo, hi)}`;
  const over = `${stat} over ${pairs.length} bursts, ${n}; bound ${ratio(threshold)}`;
  return { outcome, stat, estimate, lo, hi, threshold, ...sizes, detail: `${interval} (${over})` };
}
