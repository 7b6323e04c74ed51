// A pool job (rig/load/workers/poolJob.ts) whose thread dies once it started: an exception thrown
// outside any promise, as a bug in the rig's own code would be.
import type { JobChannel } from '../../rig/load/workers/iterationSpec.ts';

export function crashingJob(_args: unknown, channel: JobChannel): Promise<unknown> {
  if (channel.share.index === 1)
    setImmediate(() => {
      throw new Error('planted crash in a job');
    });
  return new Promise(() => {});
}
