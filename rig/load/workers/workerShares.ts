// A schedule materialised once, on the coordinator, as one share per worker (the arrival-k-mod-N
// split of shardedArrivals.ts): typed arrays, copied to a worker in one message.
import type { Arrival } from '../arrivalSchedule.ts';
import { shareOfArrivals } from '../shardedArrivals.ts';

export interface MaterialisedShare {
  atMs: Float64Array;
  steps: Uint32Array;
}

/** More is refused: a schedule that never ends (or one cut by its own clock) cannot be split up front. */
export const MAX_SPLIT_ARRIVALS = 10_000_000;

function upFront(arrivals: Iterable<Arrival>): Arrival[] {
  const all: Arrival[] = [];
  for (const arrival of arrivals) {
    if (all.length === MAX_SPLIT_ARRIVALS)
      throw new RangeError(
        `a schedule of over ${MAX_SPLIT_ARRIVALS} arrivals cannot be split across worker threads: use --workers 1`,
      );
    all.push(arrival);
  }
  return all;
}

/** Worker i's part of a bound (in flight, backlog): the parts add up to the caller's exactly. */
export function shareOfBound(total: number, share: { index: number; count: number }): number {
  return Math.floor(total / share.count) + (share.index < total % share.count ? 1 : 0);
}

export function materialiseShares(arrivals: Iterable<Arrival>, count: number): MaterialisedShare[] {
  const all = upFront(arrivals);
  return Array.from({ length: count }, (_, index) => {
    const share = [...shareOfArrivals(all, { index, count })];
    return { atMs: Float64Array.from(share, (a) => a.atMs), steps: Uint32Array.from(share, (a) => a.step) };
  });
}
