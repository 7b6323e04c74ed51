// "An answer is acknowledged only after its commit": with group commit (outbox.ts) a request's
// writes, and everything it read, may still be in the open batch when its handler replies. This
// holds the bytes of one HTTP response (JSON replies, error replies, an SSE stream's snapshot)
// until that batch is committed, in the order they were written. Holding the whole response at
// one place covers every binding and every error path alike, instead of one await per reply.
import type { ServerResponse } from 'node:http';
import type { Outbox } from './outbox.ts';

export function holdUntilCommitted(res: ServerResponse, outbox: Outbox): void {
  const write = res.write;
  const end = res.end;
  const held: Array<() => void> = [];
  let waiting = false;
  const release = (failed?: Error) => {
    waiting = false;
    if (failed) {
      // What the reply says was never stored: the client gets a cut connection, not a false ack.
      held.length = 0;
      res.destroy();
      return;
    }
    while (held.length > 0) {
      if (res.destroyed) return void (held.length = 0);
      // A batch opened while the previous one was being released: what follows may come from it.
      if (outbox.uncommitted) return wait();
      held.shift()!();
    }
  };
  const wait = () => {
    if (waiting) return;
    waiting = true;
    outbox.afterCommit(release);
  };
  // Later bytes queue behind held ones even when nothing is uncommitted any more: order first.
  res.write = function heldWrite(this: ServerResponse, ...args: unknown[]): boolean {
    if (held.length === 0 && !outbox.uncommitted) return (write as (...a: unknown[]) => boolean).apply(res, args);
    held.push(() => (write as (...a: unknown[]) => boolean).apply(res, args));
    wait();
    return true;
  } as ServerResponse['write'];
  res.end = function heldEnd(this: ServerResponse, ...args: unknown[]): ServerResponse {
    if (held.length === 0 && !outbox.uncommitted) return (end as (...a: unknown[]) => ServerResponse).apply(res, args);
    held.push(() => (end as (...a: unknown[]) => ServerResponse).apply(res, args));
    wait();
    return res;
  } as ServerResponse['end'];
}
