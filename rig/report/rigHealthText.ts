// The rig's own load (results.json `health`, rig/metrics/rigHealth.ts) as one line of text, for
// the terminal summary, summary.md and report.html alike. Shown only when it is notable: the rig
// was saturated (rigSaturation: then the scenario's latencies are the rig's as much as the
// agent's, and the line says so), or the open model's generator fell behind its schedule (where
// and by how much: the rig's limit, never the agent's failure). Nothing when it kept up.
import { rigSaturation, type RigHealth } from '../metrics/rigHealth.ts';
import type { BehindStep } from '../metrics/scheduleHealth.ts';
import type { ScenarioResult } from '../results/runResult.ts';
import { count, millis, percent, quantity } from '../figures.ts';

/** A percentage the health already holds (of a core, of the machine's time). */
const pct = (n: number) => percent(n, 100);

/** Every figure recorded, in one line: event loop, rig CPU, schedule, machine, agent. */
export function healthFigures(h: RigHealth): string {
  const loop = h.eventLoopDelayMs;
  const parts = [
    `event-loop delay p50/p99/max ${millis(loop.p50)}/${millis(loop.p99)}/${millis(loop.max)} ms`,
    `rig CPU ${pct(h.rigCpu.pctOfCore)} of a core (peak ${pct(h.rigCpu.peakPctOfCore)}; ` +
      `${pct(h.rigCpu.pctOfCores)} of ${h.cores} cores)`,
  ];
  const s = h.schedule;
  if (s) {
    const dropped = s.dropped_iterations ? `, ${count(s.dropped_iterations)} dropped` : '';
    const lag = s.schedule_lag ? `, start lag p99 ${millis(s.schedule_lag.p99 / 1000)} ms` : '';
    parts.push(
      `${count(s.late)} of ${count(s.started)} starts late (max lag ${millis(s.maxStartLagMs)} ms)${dropped}${lag}`,
    );
  }
  if (h.machine) {
    const steal = h.machine.stealPct === undefined ? '' : `, steal ${pct(h.machine.stealPct)}`;
    parts.push(`run queue ${quantity(h.machine.runnableMean)} (max ${h.machine.runnableMax})${steal}`);
  }
  if (h.agentCpu) {
    const peak = h.agentCpu.peakPctOfCore === undefined ? '' : ` (peak ${pct(h.agentCpu.peakPctOfCore)})`;
    parts.push(`agent CPU ${pct(h.agentCpu.pctOfCore)} of a core${peak}`);
  }
  return parts.join(' · ');
}

/**
 * One line when the scenario's health is notable, else undefined: the saturation first (so a
 * latency read beside it is known to be the load generator's too), then the figures.
 */
export function healthNote(s: Pick<ScenarioResult, 'health'>): string | undefined {
  const h = s.health;
  if (!h) return undefined;
  const saturated = rigSaturation(h);
  const behind = behindNote(h);
  if (saturated)
    return `${saturated}; its latencies include the rig's own delay${behind ? `; ${behind}` : ''} · ${healthFigures(h)}`;
  if (behind) return `${behind} (the rig's limit, not the agent's) · ${healthFigures(h)}`;
  // Results from before schedule truth say only that starts were late.
  if (h.schedule && h.schedule.scheduled === undefined && h.schedule.late > 0)
    return `the open model started late · ${healthFigures(h)}`;
  return undefined;
}

/** The steps shown one by one; more are counted. */
const BEHIND_SHOWN = 3;

/** Where the generator fell behind its schedule and by how much; undefined when it kept up. */
export function behindNote(h: RigHealth): string | undefined {
  const behind = h.schedule?.behind ?? [];
  if (behind.length === 0) return undefined;
  const more = behind.length > BEHIND_SHOWN ? `; and in ${behind.length - BEHIND_SHOWN} more steps` : '';
  return behind.slice(0, BEHIND_SHOWN).map(behindText).join('; ') + more;
}

/** "the generator fell behind in step 4: 312 of 6,000 starts dropped, start lag p99 38.0 ms, worst event-loop …" */
export function behindText(b: BehindStep): string {
  const where = [b.steps > 1 ? `step ${b.step}` : '', b.loads > 1 ? `load ${b.load} of ${b.loads}` : '']
    .filter(Boolean)
    .join(' of ');
  const late = `${count(b.late)} of ${count(b.started)} started late (${count(b.lateWithFreeSlot)} with a slot free)`;
  const parts = [
    ...(b.dropped_iterations > 0 ? [`${count(b.dropped_iterations)} of ${count(b.scheduled)} starts dropped`] : []),
    ...(b.late > 0 ? [late] : []),
    `start lag p99 ${millis(b.lagP99Ms)} ms`,
    `worst event-loop delay ${millis(b.loopDelayMaxMs)} ms`,
  ];
  return `the generator fell behind${where ? ` in ${where}` : ''}: ${parts.join(', ')}`;
}
