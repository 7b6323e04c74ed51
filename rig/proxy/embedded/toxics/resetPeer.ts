// Resets the connection (TCP RST, via SO_LINGER 0 set when the link started) `timeout` ms after
// the first chunk, or the close, arrives; that chunk is dropped. The wait cannot be interrupted,
// as in Go.
import { INTERRUPTED } from '../chunkChannel.ts';
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

type ResetPeerAttributes = { timeout: number };

export const resetPeerToxic: ToxicType<ResetPeerAttributes> = {
  type: 'reset_peer',
  goStruct: 'ResetToxic',
  attributes: { timeout: 'int64' },
  resetsPeer: true,
  async pipe(stub: ToxicStub, attributes: ResetPeerAttributes): Promise<void> {
    const first = await stub.next();
    if (first === INTERRUPTED) return;
    await stub.sleepUninterruptibly(attributes.timeout);
    stub.close();
  },
};
