// Passes every chunk through untouched. It heads every link's chain (so a toxic added later has a
// stage to interrupt) and stands in for any toxic whose toxicity roll missed.
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub } from '../toxicStub.ts';
import type { ToxicType } from './toxicType.ts';

export const noopToxic: ToxicType<Record<string, never>> = {
  type: 'noop',
  goStruct: 'NoopToxic',
  attributes: {},
  async pipe(stub: ToxicStub): Promise<void> {
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      stub.send(chunk);
    }
  },
};
