// Passes every chunk through untouched (the stub's passThrough, Go's NoopToxic.Pipe). It heads every
// link's chain, so a toxic added later has a stage to interrupt.
import type { ToxicStub, ToxicType } from '../toxicStub.ts';

export const noopToxic: ToxicType<Record<string, never>> = {
  type: 'noop',
  goStruct: 'NoopToxic',
  attributes: {},
  pipe(stub: ToxicStub): Promise<void> {
    return stub.passThrough();
  },
};
