// Toxiproxy's toxics/toxic.go in one file, as in Go: the tiny interface every toxic implements, the
// toxic as configured on a proxy, and ToxicStub, one toxic's place in one link.
// A toxic owns nothing per connection; it transforms the stream of chunks flowing through one
// ToxicStub, and whatever it must remember per connection lives in the stub's state.
// The stub holds its input and output channels, that state, and the means to interrupt the toxic
// so the chain can be rewired without losing data. A toxic waits only through next() and sleep(),
// so an interrupt always reaches it promptly.
import { ChunkChannel, INTERRUPTED, type Received, type StreamChunk } from './chunkChannel.ts';

/** Go's integer kinds, named as they appear in Toxiproxy's decode errors. */
export type AttributeKind = 'int64' | 'int';

export type Direction = 'upstream' | 'downstream';

export interface ToxicType<A extends Record<string, number> = Record<string, number>> {
  /** The registry name clients send as `type`. */
  readonly type: string;
  /** The Go struct name, for decode errors that read like the real server's. */
  readonly goStruct: string;
  /** Attribute names in the order the real server serialises them, all defaulting to 0. */
  readonly attributes: { readonly [K in keyof A]: AttributeKind };
  /** Capacity of the channel feeding this toxic (Go's BufferedToxic); 0 means unbuffered. */
  readonly bufferSize?: number;
  /** reset_peer: a link starting with it in its chain sets SO_LINGER 0 on both sockets. */
  readonly resetsPeer?: boolean;
  /** Per-connection state that survives attribute updates (limit_data's byte count). */
  newState?(): unknown;
  /** Runs until the input closes, the stub is closed, or it is interrupted. */
  pipe(stub: ToxicStub, attributes: A): Promise<void>;
  /** Called before the toxic is removed from a live link (timeout closes the stub). */
  cleanup?(stub: ToxicStub): void;
}

/** A toxic as configured on a proxy: one of these per name, shared by every link of its direction. */
export interface ToxicWrapper {
  name: string;
  type: ToxicType;
  /** As the client spelled it: the real server echoes "UPSTREAM" back unchanged. */
  stream: string;
  direction: Direction;
  /** Stored as float32, as Go does. */
  toxicity: number;
  attributes: Record<string, number>;
}

/** next(ms) found nothing for ms milliseconds. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

export class ToxicStub {
  state: unknown = undefined;
  wrapper: ToxicWrapper | null = null;
  private running: Promise<void> | null = null;
  private interruptPending = false;
  private disposed = false;
  private closedFlag = false;
  private wakeup: (() => void) | null = null;
  private uninterruptibleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly input: ChunkChannel,
    public output: ChunkChannel,
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Starts the toxic; toxicity is rolled here, so once per connection and again on every restart (as in Go). */
  run(wrapper: ToxicWrapper): void {
    this.wrapper = wrapper;
    this.interruptPending = false;
    if (this.disposed || this.closedFlag) return;
    // Go: rand.Float32() < toxicity ? toxic.Pipe(s) : new(NoopToxic).Pipe(s).
    const piped = Math.random() < wrapper.toxicity ? wrapper.type.pipe(this, wrapper.attributes) : this.passThrough();
    const pipe = piped.catch((err: unknown) => {
      process.stderr.write(`a2a-rig proxy: toxic ${wrapper.name} failed: ${String(err)}\n`);
      this.close();
    });
    this.running = pipe;
    void pipe.finally(() => {
      if (this.running === pipe) this.running = null;
    });
  }

  /** Stops the running toxic. False when the stub is (or became) closed, like Go's InterruptToxic. */
  async interrupt(): Promise<boolean> {
    if (this.closedFlag || this.disposed) return false;
    if (this.running) {
      this.interruptPending = true;
      this.wakeup?.();
      await this.running;
      this.interruptPending = false;
    }
    return !this.closedFlag;
  }

  /** The link is gone: stop for good, cutting even uninterruptible waits. */
  dispose(): void {
    this.disposed = true;
    if (this.uninterruptibleTimer) clearTimeout(this.uninterruptibleTimer);
    this.wakeup?.();
  }

  /** The next chunk, null when the input is closed, INTERRUPTED, or (given ms) TIMED_OUT after ms idle. */
  async next(): Promise<Received>;
  async next(ms: number | undefined): Promise<Received | typeof TIMED_OUT>;
  async next(ms?: number): Promise<Received | typeof TIMED_OUT> {
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      for (;;) {
        if (this.interruptPending || this.disposed) return INTERRUPTED;
        const chunk = this.input.tryTake();
        if (chunk !== undefined) return chunk;
        if (timedOut) return TIMED_OUT;
        await new Promise<void>((resolve) => {
          this.wakeup = resolve;
          this.input.onReadable(resolve);
          if (ms !== undefined && timer === undefined) {
            timer = setTimeout(() => {
              timedOut = true;
              resolve();
            }, ms);
          }
        });
        this.wakeup = null;
        this.input.onReadable(null);
      }
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** Waits ms milliseconds; true if interrupted first. Below 1 ms it yields one event-loop turn. */
  sleep(ms: number): Promise<boolean> {
    if (this.interruptPending || this.disposed) return Promise.resolve(true);
    if (ms <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const done = () => {
        this.wakeup = null;
        resolve(false);
      };
      if (ms < 1) {
        const immediate = setImmediate(done);
        this.wakeup = () => {
          clearImmediate(immediate);
          resolve(true);
        };
      } else {
        const timer = setTimeout(done, ms);
        this.wakeup = () => {
          clearTimeout(timer);
          resolve(true);
        };
      }
    });
  }

  /** A wait interrupts cannot cut (reset_peer's); only disposal of the link ends it early. */
  sleepUninterruptibly(ms: number): Promise<void> {
    if (this.disposed || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.uninterruptibleTimer = setTimeout(() => {
        this.uninterruptibleTimer = null;
        resolve();
      }, ms);
      this.wakeup = () => {
        if (!this.disposed) return;
        if (this.uninterruptibleTimer) clearTimeout(this.uninterruptibleTimer);
        this.uninterruptibleTimer = null;
        resolve();
      };
    });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Go's NoopToxic.Pipe: every chunk passes untouched until the input closes or an interrupt. */
  async passThrough(): Promise<void> {
    for (;;) {
      const chunk = await this.next();
      if (chunk === INTERRUPTED) return;
      if (chunk === null) return this.close();
      this.send(chunk);
    }
  }

  send(chunk: StreamChunk): void {
    this.output.push(chunk);
  }

  /** Ends this stage: the output closes (the link's writer closes the socket) and input is dropped. */
  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.output.close();
    this.input.discard();
  }
}
