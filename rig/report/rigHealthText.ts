// The rig's own load (results.json `health`, rig/metrics/rigHealth.ts) as one line of text, for
// the terminal summary, summary.md and report.html alike. Shown only when it is notable: the rig
// was saturated (rigSaturation: then the scenario's latencies are the rig's as much as the
// agent's, and the line says so), or the open model started iterations late.
import { rigSaturation, type RigHealth } from '../metrics/rigHealth.ts';
import type { ScenarioResult } from '../results/runResult.ts';
import { count, millis } from './terminalNumbers.ts';

const pct = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} %`;

/** Every figure recorded, in one line: event loop, rig CPU, schedule, machine, agent. */
export function healthFigures(h: RigHealth): string {
  const loop = h.eventLoopDelayMs;
  const parts = [
    `event-loop delay p50/p99/max ${millis(loop.p50)}/${millis(loop.p99)}/${millis(loop.max)} ms`,
    `rig CPU ${pct(h.rigCpu.pctOfCore)} of a core (peak ${pct(h.rigCpu.peakPctOfCore)}; ` +
      `${pct(h.rigCpu.pctOfCores)} of ${h.cores} cores)`,
  ];
  if (h.schedule)
    parts.push(
      `${count(h.schedule.late)} of ${count(h.schedule.started)} starts late (max lag ${millis(h.schedule.maxStartLagMs)} ms)`,
    );
  if (h.machine) {
    const steal = h.machine.stealPct === undefined ? '' : `, steal ${pct(h.machine.stealPct)}`;
    parts.push(`run queue ${h.machine.runnableMean.toFixed(1)} (max ${h.machine.runnableMax})${steal}`);
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
  if (saturated) return `${saturated}; its latencies include the rig's own delay · ${healthFigures(h)}`;
  if (h.schedule && h.schedule.late > 0) return `the open model started late · ${healthFigures(h)}`;
  return undefined;
}
