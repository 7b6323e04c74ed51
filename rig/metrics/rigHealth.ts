// What the rig saw of itself while a scenario ran (issue 23, "the rig watches itself"): its event
// loop, its CPU, the open model's schedule lag, the machine's run queue and steal, the agent's CPU.
// A latency the rig measures includes the time the rig took to notice it; when the rig (not the
// agent) was the bottleneck, a figure must say so, and `rigSaturation` is the one rule for when.
// Sampled by rigHealthMonitor.ts; results.json `health` (each scenario) and `rig.health` (the run).
import { mergeScheduleHealth, type ScheduleHealth } from './scheduleHealth.ts';
import { microsAsMillis, millis, quantity } from '../figures.ts';

/** One window of the time series (results.json `health.points`), `t` ms after the scenario started. */
export interface RigHealthPoint {
  t: number;
  /** The window's event-loop delay p99 and max, ms. */
  loopP99Ms: number;
  loopMaxMs: number;
  /** The rig process's CPU (all its threads) over the window, % of one core. */
  rigCpuPct: number;
  /** Runnable threads on the machine at the window's end, the rig's reader left out (Linux). */
  runnable?: number;
  /** Steal over the window, % of all cores' time (Linux). */
  stealPct?: number;
  /** The agent's CPU over the window, % of one core (only when the rig started it). */
  agentCpuPct?: number;
}

export interface RigHealth {
  /** How long it was watched, ms. */
  durationMs: number;
  /** The cores the rig could use (os.availableParallelism()). */
  cores: number;
  /** How late the rig's event loop ran a timer, ms, beyond the 10 ms it asked for. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /**
   * The rig process's CPU, user + system of all its threads (process.cpuUsage()): `pctOfCore` over
   * the whole scenario, `peakPctOfCore` its busiest window, `pctOfCores` the mean over `cores`.
   */
  rigCpu: { pctOfCore: number; peakPctOfCore: number; pctOfCores: number };
  /**
   * The open-model loads the scenario ran (scheduleHealth.ts): starts, late starts, drops
   * (`dropped_iterations`), the start lag (`schedule_lag`) and the steps where the generator fell
   * behind. Absent when it ran none.
   */
  schedule?: ScheduleHealth;
  /** Linux /proc only: mean and most runnable threads (the rig's reader left out), and steal %. */
  machine?: { runnableMean: number; runnableMax: number; stealPct?: number };
  /**
   * The agent's CPU, % of one core: over the whole scenario and its busiest window. `source`: where
   * it was read (`/proc/<pid>` for an agent the rig started, else its `/metrics`). Absent when the
   * rig could not read it.
   */
  agentCpu?: { pctOfCore: number; peakPctOfCore?: number; source: string };
  /** The windows, in order (at most MAX_POINTS; a window is ≥ 1 s). Absent on a run-level summary. */
  points?: RigHealthPoint[];
}

/**
 * The thresholds of `rigSaturation`, named so a report can print them.
 *
 * - Event-loop delay p99 over 20 ms: more than 1 % of the rig's callbacks ran 20 ms late, twice the
 *   open model's own "late start" bound (10 ms, openModelExecutor.ts), and a latency of a few ms (a
 *   resume, a +3 ms toxic) is then the rig's queue as much as the agent's. A single major GC pause
 *   (a few ms for the rig's heap) stays under it.
 * - Rig CPU ≥ 90 % of one core over the scenario: the rig's JavaScript runs on one thread, so at
 *   that mean its callbacks queue behind each other most of the time (the busiest window alone is
 *   not enough: setup and the histogram encoding at the end spike briefly).
 * - Runnable threads (the rig's reader left out) above the cores, on average: every thread that
 *   wanted a CPU, the rig's included, waited for one (the load-per-core > 1 rule, measured now).
 * - Steal ≥ 10 %: the hypervisor took a tenth of the cores' time; a neighbour VM, not the agent.
 * - Over 1 % of the open model's starts late with a slot free (lateWithFreeSlot): the generator
 *   itself (its timers, its event loop) could not keep its schedule, as the loop rule says for its
 *   p99. Starts that waited for a slot, and drops, do not count: a slow target fills the slots, so
 *   those are the rig's bounds reached (capacity judges them as such), not its own delay.
 */
export const SATURATION = {
  loopDelayP99Ms: 20,
  rigCpuPctOfCore: 90,
  runnablePerCore: 1,
  stealPct: 10,
  lateWithFreeSlotPct: 1,
} as const;

/** Why the rig, not the agent, may have been the limit of figures measured under `health`; else undefined. */
export function rigSaturation(health: RigHealth | undefined): string | undefined {
  if (!health) return undefined;
  const reasons: string[] = [];
  const loop = health.eventLoopDelayMs.p99;
  if (loop > SATURATION.loopDelayP99Ms)
    reasons.push(`event-loop delay p99 ${millis(loop)} ms (over ${SATURATION.loopDelayP99Ms} ms)`);
  if (health.rigCpu.pctOfCore >= SATURATION.rigCpuPctOfCore)
    reasons.push(`rig CPU ${quantity(health.rigCpu.pctOfCore)} % of a core (from ${SATURATION.rigCpuPctOfCore} %)`);
  const m = health.machine;
  if (m && m.runnableMean > health.cores * SATURATION.runnablePerCore)
    reasons.push(`run queue ${quantity(m.runnableMean)} runnable for ${health.cores} cores`);
  if (m?.stealPct !== undefined && m.stealPct >= SATURATION.stealPct)
    reasons.push(`CPU steal ${quantity(m.stealPct)} % (from ${SATURATION.stealPct} %)`);
  const behind = generatorBehind(health.schedule);
  if (behind) reasons.push(behind);
  return reasons.length ? `the load generator was saturated: ${reasons.join(', ')}` : undefined;
}

/** The generator's own lateness past SATURATION.lateWithFreeSlotPct of its starts, in words; else undefined. */
function generatorBehind(s: ScheduleHealth | undefined): string | undefined {
  const late = s?.lateWithFreeSlot ?? 0;
  if (!s || late * 100 <= s.started * SATURATION.lateWithFreeSlotPct) return undefined;
  const p99 = s.schedule_lag ? `, start lag p99 ${microsAsMillis(s.schedule_lag.p99)} ms` : '';
  return (
    `the generator fell behind its schedule (${late} of ${s.started} starts late with a slot free${p99}, ` +
    `over ${SATURATION.lateWithFreeSlotPct} %)`
  );
}

/**
 * The worse of each figure (a merge of workers, a run's summary over its scenarios), starts and late
 * starts summed; the time series is dropped (windows of different runs do not line up).
 */
export function worstHealth(parts: Array<RigHealth | undefined>): RigHealth | undefined {
  const all = parts.filter((h): h is RigHealth => h !== undefined);
  if (all.length === 0) return undefined;
  const max = (f: (h: RigHealth) => number | undefined) => {
    const values = all.map(f).filter((v): v is number => v !== undefined);
    return values.length ? Math.max(...values) : undefined;
  };
  const schedule = mergeScheduleHealth(all.flatMap((h) => (h.schedule ? [h.schedule] : [])));
  const machines = all.flatMap((h) => (h.machine ? [h.machine] : []));
  const agent = all.find((h) => h.agentCpu && h.agentCpu.pctOfCore === max((x) => x.agentCpu?.pctOfCore))?.agentCpu;
  const steal = max((h) => h.machine?.stealPct);
  const peakAgent = max((h) => h.agentCpu?.peakPctOfCore);
  return {
    durationMs: max((h) => h.durationMs)!,
    // The fewest cores: the saturation rule then holds the worst run queue against the smallest machine.
    cores: Math.min(...all.map((h) => h.cores)),
    eventLoopDelayMs: {
      p50: max((h) => h.eventLoopDelayMs.p50)!,
      p99: max((h) => h.eventLoopDelayMs.p99)!,
      max: max((h) => h.eventLoopDelayMs.max)!,
    },
    rigCpu: {
      pctOfCore: max((h) => h.rigCpu.pctOfCore)!,
      peakPctOfCore: max((h) => h.rigCpu.peakPctOfCore)!,
      pctOfCores: max((h) => h.rigCpu.pctOfCores)!,
    },
    ...(schedule ? { schedule } : {}),
    ...(machines.length
      ? {
          machine: {
            runnableMean: Math.max(...machines.map((m) => m.runnableMean)),
            runnableMax: Math.max(...machines.map((m) => m.runnableMax)),
            ...(steal !== undefined ? { stealPct: steal } : {}),
          },
        }
      : {}),
    ...(agent ? { agentCpu: { ...agent, ...(peakAgent !== undefined ? { peakPctOfCore: peakAgent } : {}) } } : {}),
  };
}
