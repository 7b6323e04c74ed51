// Feeds an open-model load into the live metrics (`--metrics-port`) without the executor knowing:
// the offered arrival rate from the spacing of consecutive arrivals as the executor takes them
// (it takes the next one when the previous comes due, so the gauge follows the schedule), and
// iterations started, succeeded and failed. And into the scenario's traffic record: arrivals as
// they come due (offered) and iterations as they succeed (achieved), through the executor's observer.
import type { RigMetrics } from '../metrics/rigMetrics.ts';
import type { Arrival } from '../load/arrivalSchedule.ts';
import type { LoadObserver, OpenModelOptions } from '../load/openModelExecutor.ts';

function observedArrivals(arrivals: Iterable<Arrival>, live: RigMetrics): Iterable<Arrival> {
  return {
    *[Symbol.iterator]() {
      let previous: number | undefined;
      try {
        for (const arrival of arrivals) {
          if (previous !== undefined && arrival.atMs > previous) live.setArrivalRate(1000 / (arrival.atMs - previous));
          previous = arrival.atMs;
          yield arrival;
        }
      } finally {
        live.setArrivalRate(0);
      }
    },
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

export function observedOpenModel(options: OpenModelOptions, live: RigMetrics | undefined, traffic?: LoadObserver): OpenModelOptions {
  if (traffic) options = { ...options, observer: bothObservers(options.observer, traffic) };
  if (!live) return options;
  const { iteration } = options;
  return {
    ...options,
    arrivals: observedArrivals(options.arrivals, live),
    iteration: async (it) => {
      live.iterationStarted();
      try {
        const end = await iteration(it);
        live.iterationEnded('succeeded');
        return end;
      } catch (err) {
        live.iterationEnded('failed');
        throw err;
      }
    },
  };
}
