// A family's attacks as bursts between control windows (issue 23; the plan and its timing are in
// attackRun.ts's header): each attack alone, B bursts each, legitimate traffic alone before each
// burst and after the last, so a burst's tax is measured against controls beside it in time.
import type { AttackOutcome, AttackReport } from '../../attack/attackTypes.ts';
import { LoadWorkerFailure } from '../../load/workers/workerPool.ts';
import type { AttackRecord, BurstRecord, MixedRunDeps, MixedRunPlan, PlannedAttack, Span } from './attackRunTypes.ts';

function describeParams(a: PlannedAttack): string {
  const params = Object.entries(a.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${a.ratePerSecond}/s, at most ${a.maxRequests}${params ? `; ${params}` : ''}`;
}

function tallyOutcomes(outcomes: AttackOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no outcome';
}

/** One burst of an attack, aborted `attackCapMs` after its start (or with the run); adds to `record`. */
async function runBurst(
  a: PlannedAttack,
  which: string,
  plan: MixedRunPlan,
  deps: MixedRunDeps,
  stop: AbortSignal,
  record: AttackRecord,
  startAt: number,
): Promise<Pick<BurstRecord, 'startedAt' | 'stoppedAt' | 'capped'>> {
  deps.event('attack-start', a.name, `${which}; ${describeParams(a)}`, startAt);
  const capper = new AbortController();
  const capTimer = setTimeout(() => capper.abort(new Error('the attack cap passed')), plan.attackCapMs);
  const cap = capper.signal;
  const signal = AbortSignal.any([cap, stop, deps.signal]);
  const outcomes: AttackOutcome[] = [];
  let report: AttackReport | undefined;
  const schedule = {
    ratePerSecond: a.ratePerSecond,
    maxRequests: a.maxRequests,
    durationMs: a.wholeBursts ? plan.attackMs : plan.attackMs / plan.attackBursts,
    signal,
    onOutcome: (o: AttackOutcome) => outcomes.push(o),
  };
  try {
    report = record.report = await (deps.runAttack?.(a, plan.target, schedule) ??
      a.attack.run(plan.target, a.params, schedule));
  } catch (err) {
    // A crashed worker thread is the rig's failure, not the attack's: the run errors.
    if (err instanceof LoadWorkerFailure) throw err;
    record.error = (err as Error).message;
  } finally {
    clearTimeout(capTimer);
  }
  const capped = cap.aborted || stop.aborted;
  const stoppedAt = performance.now();
  // Started but never settled when the rig aborted it at the cap: the agent held them that long.
  // This burst's report only: a burst that threw left none, whatever an earlier burst reported.
  const unsettled = report?.aborted ?? (report?.started ?? 0) - outcomes.length;
  for (let i = 0; capped && i < unsettled; i++) {
    outcomes.push({
      startedAt: startAt,
      latencyMs: stoppedAt - startAt,
      kind: 'held',
      detail: 'still open when the rig aborted the attack at its cap',
    });
  }
  record.outcomes.push(...outcomes);
  const cappedText = capped ? ' (aborted at the cap)' : '';
  const failed = record.error ? `; failed: ${record.error}` : '';
  deps.event('attack-stop', a.name, `${which}: ${tallyOutcomes(outcomes)}${cappedText}${failed}`, stoppedAt);
  return { startedAt: startAt, stoppedAt, capped };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Every attack's bursts, one after another, with a control window before each burst and after the
 * last (see the header). The first control is the before phase's tail, ending at `firstAt`.
 */
export async function runBursts(
  plan: MixedRunPlan,
  deps: MixedRunDeps,
  stop: AbortSignal,
  firstAt: number,
): Promise<AttackRecord[]> {
  const records: AttackRecord[] = [];
  const aborted = AbortSignal.any([stop, deps.signal]);
  let control: Span = { from: firstAt - plan.controlMs, to: firstAt };
  let last: BurstRecord | undefined;
  for (const a of plan.attacks) {
    const record: AttackRecord = { name: a.name, outcomes: [], startedAt: 0, stoppedAt: 0, capped: false, bursts: [] };
    for (let i = 0; i < plan.attackBursts && !aborted.aborted && !record.error; i++) {
      if (last) {
        await pause(plan.controlMs, aborted);
        if (aborted.aborted) break;
        control = { from: last.stoppedAt, to: performance.now() };
        last.controlAfter = control;
      }
      const which = `burst ${i + 1}/${plan.attackBursts}`;
      const burst = await runBurst(a, which, plan, deps, stop, record, last ? control.to : firstAt);
      last = { ...burst, controlBefore: control, controlAfter: { from: burst.stoppedAt, to: burst.stoppedAt } };
      record.bursts.push(last);
    }
    if (record.bursts.length === 0) break;
    record.startedAt = record.bursts[0]!.startedAt;
    record.stoppedAt = last!.stoppedAt;
    record.capped = record.bursts.some((b) => b.capped);
    records.push(record);
  }
  // The last control is the after phase's head.
  if (last) last.controlAfter = { from: last.stoppedAt, to: last.stoppedAt + plan.controlMs };
  return records;
}
