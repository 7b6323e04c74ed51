// A load worker thread (started by workerPool.ts through workerEntry.ts): for each run it is sent,
// it builds the iteration from its spec (its own client, its own connections), says ready, starts
// its share of the schedule at the coordinator's origin, sends batches as it goes and the result at
// the end. One run at a time; `stop` aborts the run in progress.
import { parentPort, workerData } from 'node:worker_threads';
import type { Arrival } from '../arrivalSchedule.ts';
import { runOpenModel, type Iteration, type OpenModelResult } from '../openModelExecutor.ts';
import { scheduleTruthRecord } from '../../metrics/scheduleTruth.ts';
import type { IterationFactory, IterationSpec, JobFunction, WorkerTools } from './iterationSpec.ts';
import { Forwarding } from './workerForwarding.ts';
import type { FromWorker, JobMessage, RunMessage, ToWorker, WireResult, WorkerData } from './workerMessages.ts';

const port = parentPort!;
const { flushMs } = workerData as WorkerData;
const post = (message: FromWorker): void => port.postMessage(message);
const forwarding = new Forwarding(post);

function* shareArrivals(run: RunMessage): Generator<Arrival, void, undefined> {
  for (let j = 0; j < run.atMs.length; j++) yield { atMs: run.atMs[j], step: run.steps[j] };
}

/** The iteration as the schedule numbers it: arrival j of share i of N is arrival i + j·N. */
function scheduleNumbered(iteration: Iteration, run: RunMessage): Iteration {
  const { index: i, count: n } = run.share;
  return async (it) => {
    forwarding.iterationStarted();
    try {
      const end = await iteration({
        index: i + it.index * n,
        step: it.step,
        intendedAt: it.intendedAt,
        startedAt: it.startedAt,
        get signal() {
          return it.signal;
        },
      });
      forwarding.iterationEnded('succeeded');
      return end;
    } catch (err) {
      forwarding.iterationEnded('failed');
      throw err;
    }
  };
}

function wire(result: OpenModelResult): WireResult {
  return {
    ...result,
    schedule: scheduleTruthRecord(result.schedule),
    latency: result.latency.encode(),
    serviceTime: result.serviceTime.encode(),
    latencyPolled: result.latency.summary().polled,
    serviceTimePolled: result.serviceTime.summary().polled,
  };
}

let stop: AbortController | undefined;
let startWith: ((originEpoch: number) => void) | undefined;

async function run(message: RunMessage): Promise<void> {
  forwarding.watchTraffic = message.watchTraffic;
  const histograms = new Map(message.streamed.map((name) => [name, forwarding.histogram(name)]));
  const tools: WorkerTools = {
    workers: message.share.count,
    histogram: (name) => histograms.get(name),
    observer: forwarding,
    onRefused: forwarding.refusedBy,
  };
  stop = new AbortController();
  const factory = await exported<IterationFactory>(message.spec);
  const built = await factory(message.spec.args as never, tools);
  try {
    const originEpoch = await new Promise<number>((resolve) => {
      startWith = resolve;
      post({ type: 'ready' });
    });
    const timer = setInterval(() => forwarding.flush(), flushMs);
    const result = await runOpenModel({
      ...message.bounds,
      arrivals: shareArrivals(message),
      iteration: scheduleNumbered(built.iteration, message),
      signal: stop.signal,
      observer: forwarding,
      origin: originEpoch - performance.timeOrigin,
      ...(message.streamLatency ? { latency: forwarding.histogram('$latency') } : {}),
      ...(message.streamServiceTime ? { serviceTime: forwarding.histogram('$serviceTime') } : {}),
    });
    clearInterval(timer);
    forwarding.flush();
    const polled = Object.fromEntries([...histograms].map(([name, h]) => [name, h.summary().polled]));
    post({ type: 'done', result: wire(result), polled });
  } finally {
    await built.close?.();
  }
}

async function exported<F>(spec: IterationSpec): Promise<F> {
  const imported = (await import(spec.module)) as Record<string, unknown>;
  const fn = imported[spec.export];
  if (typeof fn !== 'function') throw new Error(`${spec.module} exports no ${spec.export}`);
  return fn as F;
}

let jobListener: ((body: unknown) => void) | undefined;

async function job(message: JobMessage): Promise<void> {
  const signal = (stop = new AbortController()).signal;
  forwarding.watchTraffic = message.watchTraffic;
  const fn = await exported<JobFunction>(message.spec);
  const timer = setInterval(() => forwarding.flush(), flushMs);
  try {
    const result = await fn(message.spec.args as never, {
      share: message.share,
      flushMs,
      post: (body) => post({ type: 'job-out', body }),
      onMessage: (listener) => (jobListener = listener),
      signal,
      observer: forwarding,
      onRefused: forwarding.refusedBy,
    });
    forwarding.flush();
    post({ type: 'job-done', result });
  } finally {
    clearInterval(timer);
    jobListener = undefined;
  }
}

const failed = (err: unknown): void =>
  post({ type: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') run(message).catch(failed);
  else if (message.type === 'job') job(message).catch(failed);
  else if (message.type === 'job-in') jobListener?.(message.body);
  else if (message.type === 'start') startWith?.(message.originEpoch);
  else {
    // Stopped before it started: it starts at once and ends aborted, with nothing run.
    stop?.abort(new Error('the load was stopped'));
    startWith?.(performance.timeOrigin + performance.now());
  }
});
