// An attack burst on the load worker threads (`run --workers N`, attackShare.ts has the threads'
// side): every thread aims the attack, then all start at one origin, thread i making the starts k
// with k mod N = i of the one schedule (so the rate and maxRequests are split exactly, never over).
// Outcomes come back in batches and reach the caller's onOutcome as a one-thread run's would; the
// prompts the attack answers are opened here, on the caller's target; the reports add up to one.
import type { AttackReport, AttackSchedule, AttackTarget } from '../../attack/attackTypes.ts';
import { budgetNote, socketBudget } from '../../attack/attackLimits.ts';
import type { AttackName } from '../../attack/attackRegistry.ts';
import type { LoadWorkerPool } from '../../load/workers/workerPool.ts';
import {
  ATTACK_SHARE_MODULE,
  BUDGET_NOTE,
  type AttackShareArgs,
  type AttackShareResult,
  type ToCoordinator,
  type ToThread,
} from './attackShare.ts';

function argsOf(name: AttackName, params: object, target: AttackTarget, schedule: AttackSchedule): AttackShareArgs {
  const { baseUrl, endpoint, openPrompt, ...rest } = target;
  return {
    name,
    target: { ...rest, baseUrl: baseUrl.href, endpoint: endpoint.href, opensPrompts: openPrompt !== undefined },
    params,
    schedule: {
      ratePerSecond: schedule.ratePerSecond,
      maxRequests: schedule.maxRequests,
      durationMs: schedule.durationMs,
    },
    socketCap: socketBudget.limit,
  };
}

/** The threads' reports as one: counts added, notes once each (this process's socket cap in the threads' place). */
function merged(reports: AttackReport[]): AttackReport {
  const notes = new Set(reports.flatMap((r) => r.notes.map((n) => (n === BUDGET_NOTE ? budgetNote() : n))));
  const aborted = reports.reduce((sum, r) => sum + (r.aborted ?? 0), 0);
  return {
    started: reports.reduce((sum, r) => sum + r.started, 0),
    settled: reports.reduce((sum, r) => sum + r.settled, 0),
    notes: [...notes],
    ...(aborted > 0 ? { aborted } : {}),
  };
}

/**
 * Runs the registered attack `name` on every thread of `pool`. Throws what the attack's run()
 * throws (a misuse), or the pool's LoadWorkerFailure when a thread crashed.
 */
export async function attackOnThreads(
  pool: LoadWorkerPool,
  name: AttackName,
  params: object,
  target: AttackTarget,
  schedule: AttackSchedule,
): Promise<AttackReport> {
  let ready = 0;
  const results = (await pool.runJob(
    { module: ATTACK_SHARE_MODULE, export: 'attackShareInWorker', args: argsOf(name, params, target, schedule) },
    (send) => ({
      heard(index, body) {
        const m = body as ToCoordinator;
        if (m.kind === 'outcomes')
          for (const o of m.list) schedule.onOutcome({ ...o, startedAt: o.startedAt - performance.timeOrigin });
        else if (m.kind === 'ready' && ++ready === pool.size) {
          const epoch = performance.timeOrigin + performance.now();
          for (let i = 0; i < pool.size; i++) send(i, { kind: 'origin', epoch } satisfies ToThread);
        } else if (m.kind === 'open-prompt')
          target.openPrompt!().then(
            (prompt) => send(index, { kind: 'prompt', id: m.id, prompt } satisfies ToThread),
            (err: Error) => send(index, { kind: 'prompt', id: m.id, error: err.message } satisfies ToThread),
          );
      },
    }),
    schedule.signal,
  )) as AttackShareResult[];
  const failure = results.find((r): r is { error: string } => 'error' in r);
  if (failure) throw new Error(failure.error);
  return merged(results.map((r) => (r as { report: AttackReport }).report));
}
