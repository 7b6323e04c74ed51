// The DoS scenarios' params: what a family may size (its attacks, its phases, the legitimate load,
// the gates dosVerdicts.ts judges by), the defaults every family shares, the profile sizes, and the
// budget that fits a whole mixed run.
import { readFileSync } from 'node:fs';
import type { MixedRunPhases } from './attackRunTypes.ts';
import type { GateParams } from './dosVerdicts.ts';

/** Per attack: starts per second, at most this many, and its own params over its defaults. */
export type AttackChoice = { rate: number; max: number } & Record<string, number | string | boolean>;

export interface DosParams extends GateParams, MixedRunPhases {
  /** Legitimate HITL round trips started per second through the proxy (every phase). */
  legitRate: number;
  connections: number;
  /** The attacks' loopback source address. */
  sourceAddress: string;
  /** Legitimate round trips before the run, not recorded (at legitRate). */
  warmupMs: number;
  /** Every this many ms the agent's RSS, CPU and connections are sampled. */
  sampleMs: number;
  /** `--param dos-slow.attacks='{"slowloris":{"rate":5,"max":20}}'` replaces the whole object. */
  attacks: Record<string, AttackChoice>;
}

/** The gate defaults every family shares (a scenario may change any). */
export const GATE_DEFAULTS: GateParams = {
  maxTax: 2,
  taxFloorMs: 50,
  maxErrorPct: 0.1,
  maxDroppedPct: 0.1,
  maxRefusalP99Ms: 1_000,
  maxCutMs: 20_000,
  maxRssGrowthMb: 128,
  maxRecoveryS: 5,
  recoveryWindowMs: 1_000,
  minShed: 1,
  maxShedMs: 1_000,
};

export const LEGIT_DEFAULTS = {
  legitRate: 10,
  warmupMs: 1_000,
  legitTimeoutMs: 5_000,
  maxInFlight: 64,
  connections: 16,
  sourceAddress: '127.0.0.2',
  sampleMs: 250,
};

/**
 * Phase lengths per profile for the families whose attacks settle at once (slow ones set their own).
 * Three bursts give the paired bootstrap three pairs; a control is short (it adds to the run once
 * per burst but the first) yet carries about as many round trips as a burst: 10 at smoke's 10/s.
 */
export const PHASE_SIZES = {
  smoke: { beforeMs: 3_000, attackMs: 2_000, attackCapMs: 8_000, afterMs: 4_000, attackBursts: 3, controlMs: 1_000 },
  ci: { beforeMs: 5_000, attackMs: 10_000, attackCapMs: 20_000, afterMs: 10_000, attackBursts: 3, controlMs: 3_000 },
  full: {
    beforeMs: 15_000,
    attackMs: 60_000,
    attackCapMs: 80_000,
    afterMs: 20_000,
    attackBursts: 3,
    controlMs: 10_000,
  },
} as const;

/**
 * The params of one profile: shared legit and gate defaults, the phase sizes, the attacks' own
 * choices, and any override of the scenario. The tax floor is the noise of a small shared box:
 * with the rig, its attack, the proxy and the agent on 2 cores, the p99 of a smoke phase (30-80
 * round trips, so about the slowest) moves under a harmless attack by a good part of the floor
 * (docs/benchmarks.md, "Figures behind bounds in the code"). Smoke's floor is 250 ms, which a real
 * denial of service (seconds) still breaks; ci 100 ms over 20/s; full 50 ms over 40/s.
 * Smoke's recovery bound is shorter to fit its after phase.
 */
export function dosProfile(
  profile: 'smoke' | 'ci' | 'full',
  attacks: Record<string, AttackChoice>,
  overrides: Partial<DosParams> = {},
): DosParams {
  const bySize =
    profile === 'smoke'
      ? { taxFloorMs: 250, maxRecoveryS: 3 }
      : profile === 'ci'
        ? { legitRate: 20, warmupMs: 2_000, taxFloorMs: 100 }
        : { legitRate: 40, warmupMs: 2_000 };
  return { ...GATE_DEFAULTS, ...LEGIT_DEFAULTS, ...PHASE_SIZES[profile], ...bySize, attacks, ...overrides };
}

/**
 * The soft limit on open files of the rig (Linux /proc/self/limits; 1024 when unknown), which bounds
 * how many sockets an attack may hold.
 */
export function openFilesSoftLimit(): number {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : 1024;
  } catch {
    return 1024;
  }
}

/**
 * A budget that fits the whole mixed run: before, each burst's cap and the control after it (they
 * run one after another), after, the legit drain, and 10 s for setup and teardown.
 */
export const dosBudget = (p: DosParams, attacks = Object.keys(p.attacks).length) =>
  p.warmupMs +
  p.beforeMs +
  (p.attackCapMs + p.controlMs) * Math.max(1, attacks) * p.attackBursts +
  p.afterMs +
  p.legitTimeoutMs +
  10_000;
