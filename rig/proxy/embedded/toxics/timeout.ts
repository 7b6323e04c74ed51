// Swallows all data and closes the connection once no chunk has arrived for `timeout` ms (the
// timer restarts with every chunk, as in Go). timeout 0 never closes: the stream is simply black-holed.
// Removing the toxic closes the stub, so connections it held are cut rather than resumed.
import { INTERRUPTED } from '../chunkChannel.ts';
import { TIMED_OUT, type ToxicStub, type ToxicType } from '../toxicStub.ts';

type TimeoutAttributes = { timeout: number };

export const timeoutToxic: ToxicType<TimeoutAttributes> = {
  type: 'timeout',
  goStruct: 'TimeoutToxic',
  attributes: { timeout: 'int64' },
  async pipe(stub: ToxicStub, attributes: TimeoutAttributes): Promise<void> {
    const timeout = attributes.timeout > 0 ? attributes.timeout : undefined;
    for (;;) {
      const chunk = await stub.next(timeout);
      if (chunk === INTERRUPTED) return;
      if (chunk === null || chunk === TIMED_OUT) return stub.close();
      // The chunk is dropped on the ground.
    }
  },
  cleanup(stub: ToxicStub): void {
    stub.close();
  },
};
