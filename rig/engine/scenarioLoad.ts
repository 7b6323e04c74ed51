// Where a scenario's open-model load runs (`run --workers N`): on N worker threads when its iteration
// can be rebuilt in one (ctx.hitlRoundTrip, ctx.acceptanceRoundTrip: workerIterations.ts), else on
// this thread as before, which the scenario's log says once. With N = 1 nothing changes: no thread.
// The pool is made on the first load that uses it and kept for the scenario's next ones.
import type { RunObserver } from '../results/runObserver.ts';
import { shareOfArrivals, type ArrivalShare } from '../load/shardedArrivals.ts';
import type { LoadObserver, OpenModelOptions, OpenModelResult } from '../load/openModelExecutor.ts';
import { workerSpecOf } from '../load/workers/iterationSpec.ts';
import { LoadWorkerPool } from '../load/workers/workerPool.ts';
import { runWithinBudget } from './kit/loadIterations.ts';
import { observedOpenModel } from './observedOpenModel.ts';
import type { AttackReport, AttackSchedule, AttackTarget } from '../attack/attackTypes.ts';
import { ATTACKS, type AttackName } from '../attack/attackRegistry.ts';
import { sharesSchedule } from '../attack/defineAttack.ts';
import type { PlannedAttack } from './dos/attackRunTypes.ts';
import { attackOnThreads } from './dos/attackThreads.ts';

export interface ScenarioLoadDeps {
  /** `--workers`: 1 runs every load on this thread. */
  workers: number;
  signal: AbortSignal;
  remainingMs: () => number;
  /** The run's observer (progress, live metrics). */
  run: RunObserver | undefined;
  /** The scenario's traffic record. */
  traffic: LoadObserver;
  log: (line: string) => void;
  /** A distributed run's worker: its share of each schedule (the threads split it further). */
  share: ArrivalShare | undefined;
}

export class ScenarioLoad {
  private pool: LoadWorkerPool | undefined;
  private saidWhere = false;

  constructor(private readonly deps: ScenarioLoadDeps) {}

  run(options: OpenModelOptions): Promise<OpenModelResult> {
    const { workers, share, signal, run, traffic } = this.deps;
    const shared = share ? { ...options, arrivals: shareOfArrivals(options.arrivals, share) } : options;
    // Fewer slots than threads: a thread would have none (the bound is split, never exceeded).
    const tag = workers > 1 && options.maxInFlight >= workers ? workerSpecOf(options.iteration) : undefined;
    if (!tag) {
      if (workers > 1)
        this.say(
          options.maxInFlight < workers
            ? `maxInFlight ${options.maxInFlight} is under --workers ${workers}: the load ran on one thread`
            : 'its iteration is a closure no worker thread can rebuild: the load ran on one thread',
        );
      return runWithinBudget(observedOpenModel(shared, run, traffic), signal, this.deps.remainingMs());
    }
    this.say(`the load ran on ${workers} worker threads`);
    const pool = (this.pool ??= new LoadWorkerPool(workers));
    // The run observer's arrival rate and iteration counts come from the workers' batches.
    const observed = observedOpenModel(shared, undefined, traffic);
    return runWithinBudget(observed, signal, this.deps.remainingMs(), (o) => pool.run(o, tag, run));
  }

  /**
   * One burst of a mixed run's attack: on the worker threads when there are several and the attack
   * is a registered one (a thread loads it by name), else on this thread, which the log says once.
   */
  attack(a: PlannedAttack, target: AttackTarget, schedule: AttackSchedule): Promise<AttackReport> {
    const { workers } = this.deps;
    if (workers <= 1) return a.attack.run(target, a.params, schedule);
    const registered = ATTACKS[a.name as AttackName] === a.attack && sharesSchedule(a.attack);
    const pool = registered ? this.jobPool() : undefined;
    this.sayOnce(
      pool
        ? `attack ${a.name} ran on ${workers} worker threads`
        : registered
          ? `attack ${a.name}: the worker threads were running another load: it ran on this thread`
          : `attack ${a.name} is not one of the rig's registered attacks (rig/attack/attackRegistry.ts), ` +
            'which a worker thread loads by name: it ran on this thread',
    );
    if (!pool) return a.attack.run(target, a.params, schedule);
    return attackOnThreads(pool, a.name as AttackName, a.params, target, schedule);
  }

  /** The worker threads for a job (an attack, a flood): none with --workers 1 or while another load holds them. */
  jobPool(): LoadWorkerPool | undefined {
    if (this.deps.workers <= 1 || this.pool?.busy) return undefined;
    return (this.pool ??= new LoadWorkerPool(this.deps.workers));
  }

  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }

  private readonly said = new Set<string>();

  private sayOnce(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.deps.log(line);
  }

  private say(line: string): void {
    if (this.saidWhere) return;
    this.saidWhere = true;
    this.deps.log(line);
  }
}
