// "An answer is acknowledged only after its commit": with group commit (outbox.ts) a request's
// writes, and everything it read, may still be in the open batch when its handler replies. This
// holds the bytes of one HTTP response (JSON replies, error replies, an SSE stream's snapshot)
// until that batch is committed, in the order they were written. Holding the whole response at
// one place covers every binding and every error path alike, instead of one await per reply.
// No closure is made per response: the agent runs through tsx, whose keepNames wraps every named
// function it creates in a defineProperty, and two per request were a measurable share of its CPU.
import type { ServerResponse } from 'node:http';
import type { Outbox } from './outbox.ts';

type Method = (...args: unknown[]) => unknown;

/** One response's hold: the original write/end and the calls waiting for the batch. */
class Hold {
  /** Calls held back, in order: [the original method, its arguments]. */
  readonly held: Array<[Method, unknown[]]> = [];
  waiting = false;

  constructor(
    readonly res: ServerResponse,
    readonly outbox: Outbox,
    readonly write: Method,
    readonly end: Method,
  ) {}

  /** Runs `method` now when nothing is held or uncommitted, else after what is. */
  call(method: Method, args: unknown[]): unknown {
    if (this.held.length === 0 && !this.outbox.uncommitted) return method.apply(this.res, args);
    this.held.push([method, args]);
    this.wait();
    return undefined;
  }

  wait(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.outbox.afterCommit((failed) => this.release(failed));
  }

  release(failed?: Error): void {
    this.waiting = false;
    if (failed) {
      // What the reply says was never stored: the client gets a cut connection, not a false ack.
      this.held.length = 0;
      this.res.destroy();
      return;
    }
    while (this.held.length > 0) {
      if (this.res.destroyed) return void (this.held.length = 0);
      // A batch opened while the previous one was being released: what follows may come from it.
      if (this.outbox.uncommitted) return this.wait();
      const [method, args] = this.held.shift()!;
      method.apply(this.res, args);
    }
  }
}

const HOLD = Symbol('commitHold');
type HeldResponse = ServerResponse & { [HOLD]: Hold };

// Later bytes queue behind held ones even when nothing is uncommitted any more: order first.
function heldWrite(this: HeldResponse, ...args: unknown[]): boolean {
  const hold = this[HOLD];
  const wrote = hold.call(hold.write, args);
  return wrote === undefined ? true : (wrote as boolean);
}

function heldEnd(this: HeldResponse, ...args: unknown[]): ServerResponse {
  const hold = this[HOLD];
  hold.call(hold.end, args);
  return this;
}

export function holdUntilCommitted(res: ServerResponse, outbox: Outbox): void {
  const held = res as HeldResponse;
  held[HOLD] = new Hold(res, outbox, res.write as Method, res.end as Method);
  res.write = heldWrite as ServerResponse['write'];
  res.end = heldEnd as ServerResponse['end'];
}
