// What the DoS scenarios (issue 14) leave in results.json, read back for the report: the attack
// windows (fault events `attack-start` / `attack-stop`, target = the attack's name), the legitimate
// traffic's latency per phase (`legit_round_trip{phase=before|during|after}`, `legit_resume{phase}`),
// each attack's refusal latency (`attack_refusal{attack}`) and outcome tally
// (`attack_outcomes{attack,outcome}`). A scenario without these fields yields nothing here, so the
// report draws nothing new for it.
import type { MetricResult, ScenarioResult } from '../results/runResult.ts';

export interface AttackWindow {
  attack: string;
  /** ms since the scenario started. */
  t0: number;
  t1: number;
  /** The attack-start event's detail (rate and params). */
  detail?: string;
}

/** Pairs each attack-start with the next attack-stop of the same name; one never stopped lasts to `endMs`. */
export function attackWindows(s: ScenarioResult): AttackWindow[] {
  const open = new Map<string, AttackWindow>();
  const windows: AttackWindow[] = [];
  for (const e of s.faultEvents ?? []) {
    if (e.action === 'attack-start') {
      const previous = open.get(e.target);
      if (previous) windows.push({ ...previous, t1: e.t });
      open.set(e.target, { attack: e.target, t0: e.t, t1: s.durationMs, ...(e.detail ? { detail: e.detail } : {}) });
    } else if (e.action === 'attack-stop') {
      const w = open.get(e.target);
      if (!w) continue;
      windows.push({ ...w, t1: e.t });
      open.delete(e.target);
    }
  }
  for (const w of open.values()) windows.push({ ...w, t1: Math.max(w.t0, s.durationMs) });
  return windows.sort((a, b) => a.t0 - b.t0);
}

/** `name{k=v,k2=v2}` → its labels; undefined when `key` is not a series of `base`. */
export function labelsOf(key: string, base: string): Record<string, string> | undefined {
  if (!key.startsWith(`${base}{`) || !key.endsWith('}')) return undefined;
  const labels: Record<string, string> = {};
  for (const pair of key.slice(base.length + 1, -1).split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return labels;
}

export const PHASES = ['before', 'during', 'after'] as const;
export type Phase = (typeof PHASES)[number];
export const LEGIT_METRICS = ['legit_round_trip', 'legit_resume'] as const;

export interface PhaseRow {
  metric: string;
  phase: Phase;
  m: MetricResult;
  /** p99 of this phase ÷ p99 before (the attack tax for `during`); undefined without a `before` to divide by. */
  ratio?: number;
}

/** The legitimate traffic's per-phase summaries, the metrics in LEGIT_METRICS order. */
export function phaseRows(s: ScenarioResult): PhaseRow[] {
  const rows: PhaseRow[] = [];
  for (const metric of LEGIT_METRICS) {
    const byPhase = new Map<string, MetricResult>();
    for (const [key, m] of Object.entries(s.metrics)) {
      const phase = labelsOf(key, metric)?.phase;
      if (phase) byPhase.set(phase, m);
    }
    const before = byPhase.get('before');
    for (const phase of PHASES) {
      const m = byPhase.get(phase);
      if (!m) continue;
      const ratio =
        phase !== 'before' && before && before.count > 0 && before.p99 > 0 && m.count > 0
          ? m.p99 / before.p99
          : undefined;
      rows.push({ metric, phase, m, ...(ratio !== undefined ? { ratio } : {}) });
    }
  }
  return rows;
}

/** The attack tax: legitimate p99 during ÷ before (round trip, else resume); undefined when not measured. */
export function attackTax(
  s: ScenarioResult,
): { metric: string; tax: number; during: MetricResult; before: MetricResult } | undefined {
  const rows = phaseRows(s);
  for (const metric of LEGIT_METRICS) {
    const during = rows.find((r) => r.metric === metric && r.phase === 'during');
    const before = rows.find((r) => r.metric === metric && r.phase === 'before');
    if (during?.ratio !== undefined && before) return { metric, tax: during.ratio, during: during.m, before: before.m };
  }
  return undefined;
}

/** In the order attackTypes.ts lists them: mitigations working first, failures after. */
export const OUTCOME_ORDER = ['refused', 'rate-limited', 'cut', 'held', 'connect-failed', 'accepted', 'server-error'];

export interface AttackRow {
  attack: string;
  outcomes: Record<string, number>;
  refusal?: MetricResult;
  /** `attack_tax{attack}`: the legitimate round trips' stat in its bursts ÷ in the controls beside them. */
  tax?: number;
}

/** One row per attack named by an `attack_outcomes` counter or an `attack_refusal` metric, in the order first seen. */
export function attackRows(s: ScenarioResult): AttackRow[] {
  const rows = new Map<string, AttackRow>();
  const row = (attack: string) => {
    let r = rows.get(attack);
    if (!r) rows.set(attack, (r = { attack, outcomes: {} }));
    return r;
  };
  for (const w of attackWindows(s)) row(w.attack);
  for (const [key, n] of Object.entries(s.counters)) {
    const labels = labelsOf(key, 'attack_outcomes');
    if (labels?.attack && labels.outcome)
      row(labels.attack).outcomes[labels.outcome] = (row(labels.attack).outcomes[labels.outcome] ?? 0) + n;
    const taxed = labelsOf(key, 'attack_tax')?.attack;
    if (taxed) row(taxed).tax = n;
  }
  for (const [key, m] of Object.entries(s.metrics)) {
    const attack = labelsOf(key, 'attack_refusal')?.attack;
    if (attack) row(attack).refusal = m;
  }
  return [...rows.values()];
}

/** Outcome kinds seen in any row, known ones in OUTCOME_ORDER, unknown ones after in name order. */
export function outcomeColumns(rows: AttackRow[]): string[] {
  const seen = new Set(rows.flatMap((r) => Object.keys(r.outcomes)));
  return [...OUTCOME_ORDER.filter((k) => seen.has(k)), ...[...seen].filter((k) => !OUTCOME_ORDER.includes(k)).sort()];
}

/** Does the scenario carry any DoS field (so the report draws the DoS parts)? */
export function isDosResult(s: ScenarioResult): boolean {
  return phaseRows(s).length > 0 || attackRows(s).length > 0;
}
