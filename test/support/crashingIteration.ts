// A worker-spec iteration (rig/load/workers/iterationSpec.ts) whose thread dies on its first
// iteration: an exception thrown outside any promise, as a bug in the rig's own code would be.
import type { BuiltIteration } from '../../rig/load/workers/iterationSpec.ts';

export function crashingIteration(): BuiltIteration {
  return {
    iteration: () =>
      new Promise<void>(() => {
        setImmediate(() => {
          throw new Error('planted crash in a load worker');
        });
      }),
  };
}
