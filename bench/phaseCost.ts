// What one phase of a benchmark cost on each side, so a tail can be placed: the CPU of the agent's
// process (/proc/<pid>/stat) and of this one (process.cpuUsage()) per operation, and both event
// loops' delay over the phase. The agent's comes from its /metrics (prom-client's event-loop lag,
// reset at every scrape, so a scrape at the start and one at the end bound the phase); ours from a
// perf_hooks monitor at 1 ms resolution. A stall in the process that measures lands in the
// percentiles as surely as one in the agent; this says which of the two had it.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpuSecondsFromStat } from '../rig/engine/dos/agentResources.ts';

export interface LoopDelay {
  p99Ms: number;
  maxMs: number;
}

export interface PhaseCost {
  /** Agent CPU (user + system) per operation, µs; undefined without its /proc. */
  agentCpuUs?: number;
  /** This process's CPU per operation, µs (the proxy, the load and the client). */
  benchCpuUs: number;
  agentLoop?: LoopDelay;
  benchLoop: LoopDelay;
  /** Run queue per core at the phase's end (the 1-minute load average / cores). */
  loadPerCore: number;
}

const MONITOR_RESOLUTION_MS = 1;

function agentCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The agent's event-loop lag since its previous scrape, from its /metrics; undefined when unread. */
async function agentLoopDelay(agentUrl: string): Promise<LoopDelay | undefined> {
  try {
    const text = await (await fetch(new URL('/metrics', agentUrl))).text();
    const seconds = (name: string) =>
      Number(new RegExp(`^a2a_agent_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1]);
    const p99 = seconds('p99');
    const max = seconds('max');
    return Number.isFinite(p99) && Number.isFinite(max) ? { p99Ms: p99 * 1000, maxMs: max * 1000 } : undefined;
  } catch {
    return undefined;
  }
}

/** Starts watching a phase; `end(operations)` says what it cost per operation. */
export async function watchPhase(agent: {
  pid?: number;
  url: string;
}): Promise<{ end(operations: number): Promise<PhaseCost> }> {
  await agentLoopDelay(agent.url); // resets the agent's lag histogram
  const loop = monitorEventLoopDelay({ resolution: MONITOR_RESOLUTION_MS });
  const cpu = process.cpuUsage();
  const agentCpu = agentCpuSeconds(agent.pid);
  loop.enable();
  return {
    async end(operations) {
      loop.disable();
      const used = process.cpuUsage(cpu);
      const agentNow = agentCpuSeconds(agent.pid);
      const perOp = (us: number) => us / Math.max(1, operations);
      const ms = (ns: number) => Math.max(0, ns / 1e6 - MONITOR_RESOLUTION_MS);
      const agentLoop = await agentLoopDelay(agent.url);
      const [load1] = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
      return {
        ...(agentCpu !== undefined && agentNow !== undefined ? { agentCpuUs: perOp((agentNow - agentCpu) * 1e6) } : {}),
        benchCpuUs: perOp(used.user + used.system),
        ...(agentLoop ? { agentLoop } : {}),
        benchLoop: { p99Ms: ms(loop.percentile(99)), maxMs: ms(loop.max) },
        loadPerCore: load1 / availableParallelism(),
      };
    },
  };
}

/** One line for the log: `agent 412 µs CPU/answer, loop p99 12 / max 40 ms; bench ...`. */
export function describeCost(cost: PhaseCost, unit: string): string {
  const loop = (l?: LoopDelay) =>
    l ? `loop delay p99 ${l.p99Ms.toFixed(1)} / max ${l.maxMs.toFixed(1)} ms` : 'loop delay unknown';
  const agentCpu = cost.agentCpuUs === undefined ? 'CPU unknown' : `${cost.agentCpuUs.toFixed(0)} µs CPU/${unit}`;
  return (
    `agent ${agentCpu}, ${loop(cost.agentLoop)}; ` +
    `bench process ${cost.benchCpuUs.toFixed(0)} µs CPU/${unit}, ${loop(cost.benchLoop)}; ` +
    `load/core ${cost.loadPerCore.toFixed(2)}`
  );
}
