// What every attack shares: params merged over its defaults and checked (a misuse throws one
// line), the loopback check, a setup that may find nothing to aim at (then nothing starts and the
// report says why), and the open-model schedule (attackSchedule.ts).
import { randomUUID } from 'node:crypto';
import { UserError } from '../protocol/userError.ts';
import { assertLoopbackTarget } from './attackLimits.ts';
import { assertSchedule, runOnSchedule, type StartOne } from './attackSchedule.ts';
import { shareOfBound } from '../load/workers/workerShares.ts';
import type { Attack, AttackReport, AttackSchedule, AttackTarget, LivePrompt } from './attackTypes.ts';

export type NumericParams = Record<string, number>;

/** Longest any attack holds a request or connection, whatever its params say. */
export const MAX_HOLD_MS = 600_000;

export interface AttackDefinition<P extends NumericParams> extends Omit<Attack<P>, 'run'> {
  /** Bounds of each param ([min, max]); every param is a number. */
  bounds: { [K in keyof P]: [number, number] };
  /**
   * Aims the attack (opens prompts, reads schemas); returns the start of one hostile request, or
   * undefined with a note saying why nothing can start.
   */
  prepare(target: AttackTarget, params: P, notes: string[], signal: AbortSignal): Promise<StartOne | undefined>;
}

export function mergeParams<P extends NumericParams>(
  name: string,
  defaults: P,
  bounds: { [K in keyof P]: [number, number] },
  given: Partial<Record<keyof P, unknown>> | undefined,
): P {
  const params = { ...defaults } as P;
  for (const [key, raw] of Object.entries(given ?? {})) {
    if (!(key in defaults))
      throw new UserError(`attack ${name} has no param "${key}" (it has ${Object.keys(defaults).join(', ')})`);
    const [min, max] = bounds[key];
    // Params may come from the command line as text (`--param`): a number written as text counts.
    const value: unknown = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
      throw new UserError(
        `attack ${name}: param ${key} must be a number from ${min} to ${max}, not ${JSON.stringify(raw)}`,
      );
    (params as NumericParams)[key] = value;
  }
  return params;
}

/** Attacks made by defineAttack honour AttackSchedule.share: only those may run on worker threads. */
export const SHARES_SCHEDULE = Symbol('a2a-rig attack honours schedule.share');

export function defineAttack<P extends NumericParams>(definition: AttackDefinition<P>): Attack<P> {
  const { bounds, prepare, ...rest } = definition;
  return {
    ...rest,
    ...{ [SHARES_SCHEDULE]: true },
    async run(target: AttackTarget, given: P, schedule: AttackSchedule): Promise<AttackReport> {
      assertLoopbackTarget(target);
      assertSchedule(schedule);
      const params = mergeParams(definition.name, definition.defaults, bounds, given);
      const notes: string[] = [];
      if (schedule.signal.aborted) return { started: 0, settled: 0, notes: ['aborted before it started'] };
      // A thread whose share of the schedule has no start aims nothing (no prompt opened for it).
      const idle = schedule.share !== undefined && shareOfBound(schedule.maxRequests, schedule.share) === 0;
      const start = idle ? undefined : await prepare(target, params, notes, schedule.signal);
      // Every thread of a shared schedule says it is ready, aimed or not, or the others would wait.
      const origin = await schedule.share?.ready();
      if (!start || schedule.signal.aborted)
        return { started: 0, settled: 0, notes: start ? [...notes, 'aborted before it started'] : notes };
      return runOnSchedule(target, schedule, start, notes, origin);
    },
  };
}

/**
 * A live prompt from the target, or (for attacks whose refusal does not depend on one) made-up ids
 * with a note; undefined with a note when the attack needs a live prompt and none can be opened.
 */
export async function livePromptOr(
  target: AttackTarget,
  notes: string[],
  fallback: boolean,
): Promise<LivePrompt | undefined> {
  if (target.openPrompt) {
    try {
      return await target.openPrompt();
    } catch (err) {
      notes.push(`could not open a live prompt: ${(err as Error).message}`);
    }
  } else notes.push('the target opens no prompts (no openPrompt)');
  if (!fallback) {
    notes.push('this attack needs a live prompt: nothing started');
    return undefined;
  }
  notes.push('answers go to a made-up task and prompt id instead');
  return { taskId: randomUUID(), promptId: randomUUID(), responseSchema: undefined, validPayload: { approved: true } };
}

/** The common reply bound of a one-request attack: past it with no reply the request is 'held'. */
export const REPLY_TIMEOUT_MS = 10_000;

/**
 * Up to `n` live prompts, one per openPrompt call, stopping at the first that cannot be opened (its
 * reason is in notes).
 */
export async function livePrompts(
  target: AttackTarget,
  n: number,
  notes: string[],
  signal: AbortSignal,
): Promise<LivePrompt[]> {
  const prompts: LivePrompt[] = [];
  for (let i = 0; i < n && !signal.aborted; i++) {
    const prompt = await livePromptOr(target, notes, false);
    if (!prompt) break;
    prompts.push(prompt);
  }
  return prompts;
}

/** Whether `attack` honours AttackSchedule.share (was made by defineAttack). */
export function sharesSchedule(attack: object): boolean {
  return (attack as { [SHARES_SCHEDULE]?: boolean })[SHARES_SCHEDULE] === true;
}
