// Feeds an open-model load into the live metrics (`--metrics-port`) without the executor knowing:
// the offered arrival rate from the spacing of consecutive arrivals as the executor takes them
// (it takes the next one when the previous comes due, so the gauge follows the schedule), and
// iterations started, succeeded and failed.
import type { RigMetrics } from '../metrics/rigMetrics.ts';
import type { Arrival } from '../load/arrivalSchedule.ts';
import type { OpenModelOptions } from '../load/openModelExecutor.ts';

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

export function observedOpenModel(options: OpenModelOptions, live: RigMetrics | undefined): OpenModelOptions {
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
