// Samples what rigHealth.ts records while one scenario runs: the event loop's delay (two
// perf_hooks monitors, one for the whole scenario and one reset every window: an ELD histogram
// cannot be added to another), the rig's CPU (process.cpuUsage(): every thread of the process),
// the machine (machineLoad.ts) and the agent's CPU when a reader for it is given. One unref'd
// timer per window; the readings are synchronous file reads, no I/O on the event loop it watches.
import { availableParallelism } from 'node:os';
import { loopDelayMs, loopDelaySummary, loopMonitor } from './loopDelay.ts';
import type { RigHealth, RigHealthPoint } from './rigHealth.ts';
import { readMachine, stealPct, type MachineSample } from './machineLoad.ts';
import { scheduleHealthOf, type EndedLoad } from './scheduleHealth.ts';

/** At most this many windows per scenario; a window is at least MIN_WINDOW_MS. */
export const MAX_POINTS = 240;
const MIN_WINDOW_MS = 1_000;
/** A last, partial window shorter than this is left out of the points (its CPU % would be noise). */
const MIN_LAST_WINDOW_MS = 250;

/** The agent's cumulative CPU seconds now, and which process they belong to (a restart starts anew). */
export interface AgentCpuReading {
  process: string;
  cpuSeconds: number;
}

export interface AgentCpuReader {
  /** Where it reads: `/proc/123`, a /metrics URL. */
  label: string;
  /** Sync: read every window. Async (a scrape): read at the start and the end only. */
  read(): AgentCpuReading | undefined | Promise<AgentCpuReading | undefined>;
}

export interface MonitorOptions {
  /** The scenario's budget, ms: the window is sized so that it never yields more than MAX_POINTS. */
  budgetMs: number;
  agent?: AgentCpuReader;
  /** For tests: the machine's reader (default: /proc). */
  machine?: () => MachineSample | undefined;
  cores?: number;
}

/** A span of a scenario being watched (one capacity step): `end()` gives the rig's health over it. */
export interface RigSpan {
  end(): RigHealth;
}

interface Mark {
  at: number;
  cpu: NodeJS.CpuUsage;
  agent?: AgentCpuReading;
}

/** CPU between two marks as % of one core. */
function cpuPct(from: Mark, to: Mark): number {
  const us = to.cpu.user - from.cpu.user + (to.cpu.system - from.cpu.system);
  return to.at > from.at ? us / 10 / (to.at - from.at) : 0;
}

/** The agent's CPU seconds between two readings of the same process, else undefined. */
function agentSeconds(from?: AgentCpuReading, to?: AgentCpuReading): number | undefined {
  if (!from || !to || from.process !== to.process || to.cpuSeconds < from.cpuSeconds) return undefined;
  return to.cpuSeconds - from.cpuSeconds;
}

export class RigHealthMonitor {
  private readonly whole = loopMonitor();
  private readonly window = loopMonitor();
  private readonly windowMs: number;
  private readonly machine: () => MachineSample | undefined;
  private readonly points: RigHealthPoint[] = [];
  private readonly runnable: number[] = [];
  private readonly loads: EndedLoad[] = [];
  /** The loads of each span still open (a capacity step's own load ends within its span). */
  private readonly spanLoads = new Set<EndedLoad[]>();
  private first: Mark | undefined;
  private last: Mark | undefined;
  private firstMachine: MachineSample | undefined;
  private lastMachine: MachineSample | undefined;
  /** The agent's CPU seconds summed over windows of one process (a sync reader only). */
  private agentSum = { seconds: 0, ms: 0 };
  private firstAgent: AgentCpuReading | undefined;
  /** The agent reader answers at once (/proc): read every window, not only at the ends. */
  private agentEveryWindow = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: MonitorOptions) {
    this.windowMs = Math.max(MIN_WINDOW_MS, Math.ceil(options.budgetMs / MAX_POINTS));
    this.machine = options.machine ?? (() => readMachine());
  }

  async start(): Promise<void> {
    const agent = await this.readAgent();
    this.firstAgent = agent;
    this.first = this.last = { at: performance.now(), cpu: process.cpuUsage(), ...(agent ? { agent } : {}) };
    this.firstMachine = this.lastMachine = this.machine();
    this.whole.enable();
    this.window.enable();
    this.timer = setInterval(() => this.tick(false), this.windowMs).unref();
  }

  /** An open-model load's outcome (openModelExecutor.ts), added to the scenario's and to each open span's. */
  recordSchedule(load: EndedLoad): void {
    const kept = { maxStartLagMs: load.maxStartLagMs, schedule: load.schedule };
    this.loads.push(kept);
    for (const span of this.spanLoads) span.push(kept);
  }

  private async readAgent(): Promise<AgentCpuReading | undefined> {
    try {
      const reading = this.options.agent?.read();
      if (this.first === undefined) this.agentEveryWindow = reading !== undefined && !(reading instanceof Promise);
      return (await reading) ?? undefined;
    } catch {
      return undefined; // a lost reading: that window's agent CPU is unknown
    }
  }

  /** Closes a window: a point, unless it is the last and too short to mean anything. */
  private tick(last: boolean, agentNow?: AgentCpuReading): void {
    const from = this.last!;
    const sync = last ? agentNow : this.agentEveryWindow ? this.syncAgent() : undefined;
    const to: Mark = { at: performance.now(), cpu: process.cpuUsage(), ...(sync ? { agent: sync } : {}) };
    const machine = this.machine();
    if (machine?.runnable !== undefined) this.runnable.push(machine.runnable);
    const agentS = agentSeconds(from.agent, to.agent);
    if (agentS !== undefined)
      this.agentSum = { seconds: this.agentSum.seconds + agentS, ms: this.agentSum.ms + to.at - from.at };
    if (!last || to.at - from.at >= MIN_LAST_WINDOW_MS) {
      const steal = stealPct(this.lastMachine, machine);
      this.points.push({
        t: Math.round(to.at - this.first!.at),
        loopP99Ms: round(loopDelayMs(this.window, 99)),
        loopMaxMs: round(loopDelayMs(this.window, 100)),
        rigCpuPct: round(cpuPct(from, to)),
        ...(machine?.runnable !== undefined ? { runnable: machine.runnable } : {}),
        ...(steal !== undefined ? { stealPct: round(steal) } : {}),
        ...(agentS !== undefined ? { agentCpuPct: round((agentS * 100_000) / (to.at - from.at)) } : {}),
      });
    }
    this.window.reset();
    this.last = to;
    this.lastMachine = machine;
  }

  /** A sync reader's reading now (an async one is read at the ends only). */
  private syncAgent(): AgentCpuReading | undefined {
    try {
      return this.options.agent!.read() as AgentCpuReading | undefined;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<RigHealth> {
    clearInterval(this.timer);
    const agentEnd = await this.readAgent();
    this.tick(true, agentEnd);
    this.whole.disable();
    this.window.disable();
    const first = this.first!;
    const end = this.last!;
    const cores = this.options.cores ?? availableParallelism();
    const rigPct = cpuPct(first, end);
    return {
      durationMs: Math.round(end.at - first.at),
      cores,
      eventLoopDelayMs: loopDelaySummary(this.whole),
      rigCpu: {
        pctOfCore: round(rigPct),
        peakPctOfCore: round(Math.max(rigPct, ...this.points.map((p) => p.rigCpuPct))),
        pctOfCores: round(rigPct / cores),
      },
      ...scheduleOf(this.loads),
      ...this.machineSummary(),
      ...this.agentSummary(end),
      ...(this.points.length ? { points: this.points } : {}),
    };
  }

  private machineSummary(): Pick<RigHealth, 'machine'> {
    return machineOf(this.runnable, this.firstMachine, this.lastMachine);
  }

  /**
   * Watches a span of the scenario on its own (a capacity step, judged step by step): the event
   * loop's delay from a monitor of its own, the rig's CPU between its ends, the run queue from the
   * windows closed within it and its end, steal between its ends, and the agent's CPU between its
   * ends when its reader answers at once (/proc; a scrape is read at the scenario's ends only).
   * Health is otherwise per scenario, and its windows do not line up with a step's start and end.
   */
  span(): RigSpan {
    const loop = loopMonitor();
    loop.enable();
    const agentFrom = this.agentEveryWindow ? this.syncAgent() : undefined;
    const from: Mark = { at: performance.now(), cpu: process.cpuUsage() };
    const fromMachine = this.machine();
    const t0 = this.first?.at ?? from.at;
    const loads: EndedLoad[] = [];
    this.spanLoads.add(loads);
    return {
      end: () => {
        loop.disable();
        this.spanLoads.delete(loads);
        const to: Mark = { at: performance.now(), cpu: process.cpuUsage() };
        const agentS = agentFrom ? agentSeconds(agentFrom, this.syncAgent()) : undefined;
        const toMachine = this.machine();
        const inside = this.points.filter((p) => p.t > from.at - t0 && p.t <= to.at - t0);
        const runnable = [...inside, toMachine ?? {}].flatMap((p) => (p.runnable === undefined ? [] : [p.runnable]));
        const cores = this.options.cores ?? availableParallelism();
        const pct = cpuPct(from, to);
        return {
          durationMs: Math.round(to.at - from.at),
          cores,
          eventLoopDelayMs: loopDelaySummary(loop),
          rigCpu: { pctOfCore: round(pct), peakPctOfCore: round(pct), pctOfCores: round(pct / cores) },
          ...scheduleOf(loads),
          ...machineOf(runnable, fromMachine, toMachine),
          ...(agentS !== undefined && to.at > from.at
            ? {
                agentCpu: {
                  pctOfCore: round((agentS * 100_000) / (to.at - from.at)),
                  source: this.options.agent!.label,
                },
              }
            : {}),
        };
      },
    };
  }

  /** Over the windows of one process (a sync reader), else from the first reading to the last. */
  private agentSummary(end: Mark): Pick<RigHealth, 'agentCpu'> {
    const label = this.options.agent?.label;
    if (!label) return {};
    const peaks = this.points.flatMap((p) => (p.agentCpuPct === undefined ? [] : [p.agentCpuPct]));
    if (this.agentSum.ms > 0) {
      const pct = (this.agentSum.seconds * 100_000) / this.agentSum.ms;
      return { agentCpu: { pctOfCore: round(pct), peakPctOfCore: Math.max(round(pct), ...peaks), source: label } };
    }
    const seconds = agentSeconds(this.firstAgent, end.agent);
    const ms = end.at - this.first!.at;
    if (seconds === undefined || ms <= 0) return {};
    return { agentCpu: { pctOfCore: round((seconds * 100_000) / ms), source: label } };
  }
}

/** The run queue's mean and most over `runnable`, and steal between two samples; nothing without samples. */
function machineOf(
  runnable: number[],
  from: MachineSample | undefined,
  to: MachineSample | undefined,
): Pick<RigHealth, 'machine'> {
  if (runnable.length === 0) return {};
  const steal = stealPct(from, to);
  const mean = runnable.reduce((a, b) => a + b, 0) / runnable.length;
  return {
    machine: {
      runnableMean: round(mean),
      runnableMax: Math.max(...runnable),
      ...(steal !== undefined ? { stealPct: round(steal) } : {}),
    },
  };
}

function scheduleOf(loads: EndedLoad[]): Pick<RigHealth, 'schedule'> {
  const schedule = scheduleHealthOf(loads);
  return schedule ? { schedule } : {};
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
