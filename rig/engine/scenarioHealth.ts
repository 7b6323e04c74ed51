// Watches the rig while one scenario runs (rig/metrics/rigHealthMonitor.ts): the agent's CPU is
// read from /proc when the rig started the agent. A remote agent's /metrics is not scraped for it:
// that would be a request to an agent the user named that the scenario did not make (the DoS
// scenarios read it themselves, for their own gates).
import { readFileSync } from 'node:fs';
import { worstHealth, type RigHealth } from '../metrics/rigHealth.ts';
import type { ScenarioResult } from '../results/runResult.ts';
import { RigHealthMonitor, type AgentCpuReader, type RigSpan } from '../metrics/rigHealthMonitor.ts';
import type { OpenModelResult } from '../load/openModelExecutor.ts';
import { cpuSecondsFromStat } from './dos/agentResources.ts';

/** The embedded agent's CPU from /proc/<pid>/stat (a restart is a new pid, so a new process). */
export function procAgentCpu(pid: () => number | undefined, root = '/proc'): AgentCpuReader | undefined {
  const first = pid();
  if (first === undefined) return undefined;
  return {
    label: `${root}/${first}`,
    read() {
      const now = pid();
      if (now === undefined) return undefined;
      const cpuSeconds = cpuSecondsFromStat(readFileSync(`${root}/${now}/stat`, 'utf8'));
      return cpuSeconds === undefined ? undefined : { process: String(now), cpuSeconds };
    },
  };
}

/** A started watch over one scenario: told of its open-model loads, stopped when it ends. */
export interface ScenarioWatch {
  onLoadEnd(load: OpenModelResult): void;
  /** Watches a span of it on its own (a capacity step). */
  span(): RigSpan;
  stop(): Promise<RigHealth>;
}

export async function watchScenario(budgetMs: number, agentPid: () => number | undefined): Promise<ScenarioWatch> {
  const agent = procAgentCpu(agentPid);
  const monitor = new RigHealthMonitor({ budgetMs, ...(agent ? { agent } : {}) });
  await monitor.start();
  return {
    onLoadEnd: (load) => monitor.recordSchedule(load),
    span: () => monitor.span(),
    stop: () => monitor.stop(),
  };
}

/** results.json `rig.health`: the worst of the scenarios' (rigHealth.ts worstHealth); none when none was watched. */
export function runHealth(scenarios: ScenarioResult[]): { health?: RigHealth } {
  const health = worstHealth(scenarios.map((s) => s.health));
  return health ? { health } : {};
}
