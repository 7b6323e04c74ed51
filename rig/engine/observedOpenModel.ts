// Tells the run's observer (rig/results/runObserver.ts) about an open-model load without the
// executor knowing: the offered arrival rate from the spacing of consecutive arrivals as the
// executor takes them (it takes the next one when the previous comes due, so the rate follows the
// schedule), and iterations as they start and settle. And feeds the scenario's traffic record:
// arrivals as they come due (offered) and iterations as they succeed (achieved), through the
// executor's own LoadObserver. What no observer listens to is not wrapped.
import type { RunObserver } from '../results/runObserver.ts';
import type { Arrival } from '../load/arrivalSchedule.ts';
import type { Iteration, LoadObserver, OpenModelOptions } from '../load/openModelExecutor.ts';

function observedArrivals(arrivals: Iterable<Arrival>, run: RunObserver): Iterable<Arrival> {
  return {
    *[Symbol.iterator]() {
      let previous: number | undefined;
      try {
        for (const arrival of arrivals) {
          if (previous !== undefined && arrival.atMs > previous) run.onArrivalRate?.(1000 / (arrival.atMs - previous));
          previous = arrival.atMs;
          yield arrival;
        }
      } finally {
        run.onArrivalRate?.(0);
      }
    },
  };
}

function observedIteration(iteration: Iteration, run: RunObserver): Iteration {
  return async (it) => {
    run.onIterationStart?.();
    try {
      const end = await iteration(it);
      run.onIterationEnd?.('succeeded');
      return end;
    } catch (err) {
      run.onIterationEnd?.('failed');
      throw err;
    }
  };
}

/** Both told, the caller's observer first. */
function bothObservers(a: LoadObserver | undefined, b: LoadObserver): LoadObserver {
  if (!a) return b;
  return {
    due: (at) => (a.due(at), b.due(at)),
    succeeded: (at) => (a.succeeded(at), b.succeeded(at)),
  };
}

export function observedOpenModel(
  options: OpenModelOptions,
  run: RunObserver | undefined,
  traffic?: LoadObserver,
): OpenModelOptions {
  if (traffic) options = { ...options, observer: bothObservers(options.observer, traffic) };
  if (run?.onArrivalRate) options = { ...options, arrivals: observedArrivals(options.arrivals, run) };
  if (run?.onIterationStart || run?.onIterationEnd)
    options = { ...options, iteration: observedIteration(options.iteration, run) };
  return options;
}
