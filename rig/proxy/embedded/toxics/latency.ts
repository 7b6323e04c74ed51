// Delays each chunk by latency ± jitter milliseconds, counted from when the chunk was read, so a
// stream is shifted in time rather than slowed (chunks waiting behind one another overlap).
import { performance } from 'node:perf_hooks';
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type LatencyAttributes = { latency: number; jitter: number };

function delayMs(attributes: LatencyAttributes): number {
  let delay = attributes.latency;
  if (attributes.jitter > 0) {
    // Go: rand.Int63n(jitter*2) - jitter, a whole number of ms in [-jitter, jitter).
    delay += Math.floor(Math.random() * attributes.jitter * 2) - attributes.jitter;
  }
  return delay;
}

export const latencyToxic: ToxicType<LatencyAttributes> = {
  type: 'latency',
  goStruct: 'LatencyToxic',
  attributes: { latency: 'int64', jitter: 'int64' },
  bufferSize: 1024,
  async pipe(stub: ToxicStub, attributes: LatencyAttributes): Promise<void> {
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      const sleep = delayMs(attributes) - (performance.now() - chunk.timestamp);
      const interrupted = await stub.sleep(sleep);
      if (interrupted) {
        stub.send(chunk); // leave without the latency, but drop nothing
        return;
      }
      chunk.timestamp += sleep;
      stub.send(chunk);
    }
  },
};
