// Slices each chunk into pieces of about average_size ± size_variation bytes, `delay` µs apart,
// the way a real network fragments writes.
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type SlicerAttributes = { average_size: number; size_variation: number; delay: number };

/**
 * Piece boundaries as [start0, end0, start1, end1, ...], halving recursively so sizes vary evenly.
 * Go recurses forever on average_size 0 and slices out of range when size_variation ≥ average_size
 * (both crash the real server); here a split point is kept strictly inside the range instead.
 */
function boundaries(attributes: SlicerAttributes, start: number, end: number, out: number[]): void {
  if (end - start - attributes.average_size <= attributes.size_variation || end - start <= 1) {
    out.push(start, end);
    return;
  }
  let mid = start + Math.floor((end - start) / 2);
  const variation = attributes.size_variation;
  if (variation > 0) mid += Math.floor(Math.random() * variation * 2) - variation;
  mid = Math.min(Math.max(mid, start + 1), end - 1);
  boundaries(attributes, start, mid, out);
  boundaries(attributes, mid, end, out);
}

export const slicerToxic: ToxicType<SlicerAttributes> = {
  type: 'slicer',
  goStruct: 'SlicerToxic',
  attributes: { average_size: 'int', size_variation: 'int', delay: 'int' },
  async pipe(stub: ToxicStub, attributes: SlicerAttributes): Promise<void> {
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      const cuts: number[] = [];
      boundaries(attributes, 0, chunk.data.length, cuts);
      for (let i = 1; i < cuts.length; i += 2) {
        stub.send({ data: chunk.data.subarray(cuts[i - 1], cuts[i]), timestamp: chunk.timestamp });
        if (await stub.sleep(attributes.delay / 1000)) {
          const rest = chunk.data.subarray(cuts[i]);
          if (rest.length > 0) stub.send({ data: rest, timestamp: chunk.timestamp });
          return;
        }
      }
    }
  },
};
