// The pipe between two stages of a toxic link, standing in for Toxiproxy's Go channels. Pushes never
// block (toxics run on one event loop, so a blocking send would only add deadlocks); instead each
// channel has a capacity like its Go counterpart and the link's LinkFlow pauses the socket reader
// while any channel is over it, which bounds memory the way a blocked Go send does.

/** One read from a socket, with the time it was read (performance.now() ms): latency is owed from then. */
export interface StreamChunk {
  data: Buffer;
  timestamp: number;
}

/** What a toxic gets from its input: a chunk, null once the input is closed, or the interrupt. */
export const INTERRUPTED: unique symbol = Symbol('interrupted');
export type Received = StreamChunk | null | typeof INTERRUPTED;

/** Counts channels over their capacity across one link; the reader pauses while any is. */
export class LinkFlow {
  private overfull = 0;
  constructor(private readonly onRelieved: () => void) {}

  get blocked(): boolean {
    return this.overfull > 0;
  }

  becameOverfull(): void {
    this.overfull += 1;
  }

  becameRelieved(): void {
    this.overfull -= 1;
    if (this.overfull === 0) this.onRelieved();
  }
}

export class ChunkChannel {
  private queue: StreamChunk[] = [];
  private head = 0;
  private closed = false;
  private discarding = false;
  private overfull = false;
  private readableCallback: (() => void) | null = null;

  /** capacity 0 is an unbuffered Go channel: one chunk may wait, as one sender would block. */
  constructor(
    private readonly flow: LinkFlow,
    private readonly capacity: number,
  ) {}

  get size(): number {
    return this.queue.length - this.head;
  }

  push(chunk: StreamChunk): void {
    if (this.closed || this.discarding) return;
    this.queue.push(chunk);
    if (!this.overfull && this.size > Math.max(this.capacity, 1)) {
      this.overfull = true;
      this.flow.becameOverfull();
    }
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A chunk, null once closed and drained (forever after, like a closed Go channel), or undefined when empty. */
  tryTake(): StreamChunk | null | undefined {
    if (this.head < this.queue.length) {
      const chunk = this.queue[this.head]!;
      this.head += 1;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 1024) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      this.relieveIfDrained();
      return chunk;
    }
    return this.closed ? null : undefined;
  }

  /** Calls back once when a chunk or the close is available (or at once if one is). */
  onReadable(callback: (() => void) | null): void {
    this.readableCallback = callback;
    if (callback && (this.size > 0 || this.closed)) this.wake();
  }

  /** Nobody will read this channel again (its stage closed): drop what is queued and what comes. */
  discard(): void {
    this.discarding = true;
    this.queue = [];
    this.head = 0;
    this.relieveIfDrained();
  }

  private relieveIfDrained(): void {
    if (this.overfull && this.size <= Math.max(this.capacity, 1)) {
      this.overfull = false;
      this.flow.becameRelieved();
    }
  }

  private wake(): void {
    const callback = this.readableCallback;
    if (callback) {
      this.readableCallback = null;
      callback();
    }
  }
}
