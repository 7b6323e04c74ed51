// Limits throughput to `rate` KB/s (1 KB = 1000 bytes, as in Toxiproxy). Sleep debt accumulates
// across chunks and timer overshoot is paid back, so the long-run rate holds; chunks larger than
// 100 ms worth are sent in 100 ms slices so a slow rate still trickles.
import { performance } from 'node:perf_hooks';
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type BandwidthAttributes = { rate: number };

export const bandwidthToxic: ToxicType<BandwidthAttributes> = {
  type: 'bandwidth',
  goStruct: 'BandwidthToxic',
  attributes: { rate: 'int64' },
  async pipe(stub: ToxicStub, attributes: BandwidthAttributes): Promise<void> {
    // Go would loop forever on rate 0 (and panic below it): the stream simply stalls. We stall too.
    const rate = Math.max(attributes.rate, 0);
    let sleepMs = 0;
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      sleepMs = rate <= 0 ? 0 : sleepMs + chunk.data.length / rate;
      const slice = rate * 100;
      while (chunk.data.length > slice) {
        if (await stub.sleep(100)) {
          stub.send(chunk);
          return;
        }
        if (slice > 0) {
          stub.send({ data: chunk.data.subarray(0, slice), timestamp: chunk.timestamp });
          chunk.data = chunk.data.subarray(slice);
        }
        sleepMs -= 100;
      }
      const start = performance.now();
      if (await stub.sleep(sleepMs)) {
        stub.send(chunk);
        return;
      }
      // Timers overshoot; take the overshoot off the next chunk's wait.
      sleepMs -= performance.now() - start;
      stub.send(chunk);
    }
  },
};
