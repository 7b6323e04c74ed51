// Lets exactly `bytes` bytes through on a connection, then closes it. The count lives in the
// stub's state, so it survives attribute updates, as in Go.
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type LimitDataAttributes = { bytes: number };
type LimitDataState = { transmitted: number };

export const limitDataToxic: ToxicType<LimitDataAttributes> = {
  type: 'limit_data',
  goStruct: 'LimitDataToxic',
  attributes: { bytes: 'int64' },
  newState: (): LimitDataState => ({ transmitted: 0 }),
  async pipe(stub: ToxicStub, attributes: LimitDataAttributes): Promise<void> {
    const state = stub.state as LimitDataState;
    for (;;) {
      const chunk = await stub.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return stub.close();
      const remaining = Math.max(attributes.bytes - state.transmitted, 0);
      const data = remaining < chunk.data.length ? chunk.data.subarray(0, remaining) : chunk.data;
      if (data.length > 0) {
        stub.send({ data, timestamp: chunk.timestamp });
        state.transmitted += data.length;
      }
      if (attributes.bytes - state.transmitted <= 0) return stub.close();
    }
  },
};
