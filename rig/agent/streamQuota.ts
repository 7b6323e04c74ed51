// Counts the open event streams (SSE streams and replay sockets) per task and in total, so a crowd
// of readers cannot hold unbounded memory: beyond either bound a new stream is refused with a
// clear error instead of being opened. Blocking sends wait through TaskEvents too but are not
// streams (they hold no output buffer) and are not counted.
import { A2AError, A2A_TOO_MANY_STREAMS } from '../protocol/errorCodes.ts';
import type { AgentLimits } from './agentLimits.ts';

export class StreamQuota {
  private readonly perTask = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: AgentLimits) {}

  /** Bytes one stream may leave queued right now: its share of the total budget, capped. */
  bufferBound(): number {
    const { maxStreamBufferBytes, maxStreamBufferTotalBytes } = this.limits;
    return Math.min(maxStreamBufferBytes, Math.floor(maxStreamBufferTotalBytes / Math.max(1, this.total)));
  }

  /** Takes one stream slot on `taskId` or throws A2AError(A2A_TOO_MANY_STREAMS); returns its release. */
  acquire(taskId: string): () => void {
    const onTask = this.perTask.get(taskId) ?? 0;
    if (onTask >= this.limits.maxStreamsPerTask) {
      throw new A2AError(
        A2A_TOO_MANY_STREAMS,
        `task ${taskId} already has ${onTask} open event streams ` +
          `(at most ${this.limits.maxStreamsPerTask}); retry later`,
      );
    }
    if (this.total >= this.limits.maxStreamsTotal) {
      throw new A2AError(
        A2A_TOO_MANY_STREAMS,
        `the agent already serves ${this.total} open event streams ` +
          `(at most ${this.limits.maxStreamsTotal}); retry later`,
      );
    }
    this.perTask.set(taskId, onTask + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perTask.get(taskId) ?? 1) - 1;
      if (left <= 0) this.perTask.delete(taskId);
      else this.perTask.set(taskId, left);
    };
  }
}
