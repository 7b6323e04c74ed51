// The worker thread's side of an attack run on several threads (attackThreads.ts has the
// coordinator's): the attack is loaded by its registry name, aimed at a target rebuilt from data
// (its openPrompt asks the coordinator, whose client opens the prompt as a one-thread run would),
// and run on this thread's share of the one schedule. Outcomes go back in batches every flushMs.
import { ATTACKS, type AttackName } from '../../attack/attackRegistry.ts';
import { budgetNote, socketBudget } from '../../attack/attackLimits.ts';
import type { AttackOutcome, AttackReport, AttackTarget, LivePrompt } from '../../attack/attackTypes.ts';
import type { JobChannel } from '../../load/workers/iterationSpec.ts';
import { shareOfBound } from '../../load/workers/workerShares.ts';

export interface AttackShareArgs {
  name: AttackName;
  target: Omit<AttackTarget, 'baseUrl' | 'endpoint' | 'openPrompt'> & {
    baseUrl: string;
    endpoint: string;
    opensPrompts: boolean;
  };
  params: object;
  schedule: { ratePerSecond: number; maxRequests: number; durationMs: number };
  /** The coordinator's socket cap: the threads share the process's fds, so each takes its part. */
  socketCap: number;
}

/** This module, as a thread imports it (its own URL, so a compiled build needs no change here). */
export const ATTACK_SHARE_MODULE = import.meta.url;

/** Stands for this thread's socket note in its report: the coordinator puts its own (the whole cap) there. */
export const BUDGET_NOTE = '\u0000budget';

export type ToCoordinator =
  | { kind: 'ready' }
  | { kind: 'open-prompt'; id: number }
  /** startedAt as epoch ms. */
  | { kind: 'outcomes'; list: AttackOutcome[] };

export type ToThread =
  { kind: 'origin'; epoch: number } | { kind: 'prompt'; id: number; prompt?: LivePrompt; error?: string };

export type AttackShareResult = { report: AttackReport } | { error: string };

/** The job (workerPool.ts runJob): this thread's share of the attack; a misuse comes back as `error`. */
export async function attackShareInWorker(args: AttackShareArgs, channel: JobChannel): Promise<AttackShareResult> {
  socketBudget.capAt(Math.max(1, shareOfBound(args.socketCap, channel.share)));
  const { signal } = channel;
  let outcomes: AttackOutcome[] = [];
  const flush = () => {
    if (outcomes.length > 0) channel.post({ kind: 'outcomes', list: outcomes } satisfies ToCoordinator);
    outcomes = [];
  };
  const timer = setInterval(flush, channel.flushMs);
  const prompts = new Map<number, { resolve: (p: LivePrompt) => void; reject: (err: Error) => void }>();
  let startAt: (origin: number) => void = () => {};
  const origin = new Promise<number>((resolve) => (startAt = resolve));
  const onAbort = () => {
    startAt(performance.now());
    for (const waiting of prompts.values()) waiting.reject(new Error('the attack was aborted'));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  channel.onMessage((body) => {
    const m = body as ToThread;
    if (m.kind === 'origin') startAt(m.epoch - performance.timeOrigin);
    else if (m.error !== undefined) prompts.get(m.id)?.reject(new Error(m.error));
    else prompts.get(m.id)?.resolve(m.prompt!);
  });
  let asked = 0;
  const openPrompt = (): Promise<LivePrompt> => {
    const id = asked++;
    const p = new Promise<LivePrompt>((resolve, reject) => prompts.set(id, { resolve, reject }));
    channel.post({ kind: 'open-prompt', id } satisfies ToCoordinator);
    return p.finally(() => prompts.delete(id));
  };
  const { baseUrl, endpoint, opensPrompts, ...rest } = args.target;
  const target: AttackTarget = {
    ...rest,
    baseUrl: new URL(baseUrl),
    endpoint: new URL(endpoint),
    ...(opensPrompts ? { openPrompt } : {}),
  };
  try {
    const report = await ATTACKS[args.name].run(target, args.params as never, {
      ...args.schedule,
      signal,
      onOutcome: (o) => outcomes.push({ ...o, startedAt: performance.timeOrigin + o.startedAt }),
      share: {
        ...channel.share,
        ready: () => (channel.post({ kind: 'ready' } satisfies ToCoordinator), origin),
      },
    });
    const own = budgetNote();
    return { report: { ...report, notes: report.notes.map((n) => (n === own ? BUDGET_NOTE : n)) } };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    clearInterval(timer);
    flush();
    signal.removeEventListener('abort', onAbort);
  }
}
