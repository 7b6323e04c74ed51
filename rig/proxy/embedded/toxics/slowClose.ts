// Passes data untouched but holds the close back for `delay` ms, like a peer that lingers.
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type SlowCloseAttributes = { delay: number };

export const slowCloseToxic: ToxicType<SlowCloseAttributes> = {
  type: 'slow_close',
  goStruct: 'SlowCloseToxic',
  attributes: { delay: 'int64' },
  async pipe(stub: ToxicStub, attributes: SlowCloseAttributes): Promise<void> {
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) {
        if (await stub.sleep(attributes.delay)) return;
        return stub.close();
      }
      stub.send(chunk);
    }
  },
};
