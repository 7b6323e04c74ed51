// A hand-made RigHealth (rig/metrics/rigHealth.ts) for tests: a quiet rig unless told otherwise.
import type { RigHealth } from '../../rig/metrics/rigHealth.ts';

export function health(over: Partial<RigHealth> = {}): RigHealth {
  return {
    durationMs: 5_000,
    cores: 2,
    eventLoopDelayMs: { p50: 0.1, p99: 2, max: 9 },
    rigCpu: { pctOfCore: 30, peakPctOfCore: 60, pctOfCores: 15 },
    ...over,
  };
}
