// A schedule materialised once, on the coordinator, as one share per worker (the arrival-k-mod-N
// split of shardedArrivals.ts): typed arrays, copied to a worker in one message.
import type { Arrival } from '../arrivalSchedule.ts';
import { shareOfArrivals } from '../shardedArrivals.ts';

export interface MaterialisedShare {
  atMs: Float64Array;
  steps: Uint32Array;
}

export function materialiseShares(arrivals: Iterable<Arrival>, count: number): MaterialisedShare[] {
  const all = [...arrivals];
  return Array.from({ length: count }, (_, index) => {
    const share = [...shareOfArrivals(all, { index, count })];
    return { atMs: Float64Array.from(share, (a) => a.atMs), steps: Uint32Array.from(share, (a) => a.step) };
  });
}
