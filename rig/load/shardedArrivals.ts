// One worker's share of an open-model schedule: of the arrivals 0, 1, 2, ... it keeps those whose
// number k has k mod N = i. The N shares are disjoint and together are the whole schedule, so N
// workers each offering theirs offer exactly the schedule's rate (k6's execution segments do the
// same, in fractions). Interleaving, not cutting the run in N time slices, keeps every worker's
// share spread evenly over the step: each worker offers rate/N for the whole step.
import type { Arrival } from './arrivalSchedule.ts';

export interface ArrivalShare {
  index: number;
  count: number;
}

export function* shareOfArrivals(
  arrivals: Iterable<Arrival>,
  share: ArrivalShare,
): Generator<Arrival, void, undefined> {
  if (!Number.isInteger(share.count) || share.count < 1 || !Number.isInteger(share.index))
    throw new RangeError(`a share is worker i of N, got ${share.index} of ${share.count}`);
  if (share.index < 0 || share.index >= share.count)
    throw new RangeError(`worker ${share.index} does not exist in 0..${share.count - 1}`);
  let k = 0;
  for (const arrival of arrivals) {
    if (k % share.count === share.index) yield arrival;
    k++;
  }
}
