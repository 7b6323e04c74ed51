// Keep-alive connections to one origin for the rig's unary JSON-RPC exchanges (http1Connection.ts
// says why the rig has its own): at most `connections` open at once, one exchange each at a time;
// an exchange that finds none free waits in a FIFO queue. A connection idle longer than the client's
// keep-alive bound (or than the server's `Keep-Alive: timeout` hint less a second, so the rig lets go
// before the server does) is not reused, and the server closing an idle connection drops it from the
// pool at once, so the next exchange opens a fresh one instead of writing into a closed socket.
import { Http1Connection, type ConnectionLimits, type ResponseHandler } from './http1Connection.ts';
import type { ResponseHeaders } from './http1ResponseHead.ts';

export interface PoolOptions extends ConnectionLimits {
  connections: number;
  /** How long an idle connection is kept for reuse. */
  keepAliveMs: number;
}

/** The exchange's side of the pool: `abort` ends it wherever it is (queued or on a connection). */
export interface PooledExchange {
  abort(err: Error): void;
}

/** An exchange from dispatch to its end: queued, then on a connection. Passes the connection's news on. */
class Waiting implements ResponseHandler, PooledExchange {
  connection: Http1Connection | undefined;
  done = false;
  readonly tally: ResponseHandler['tally'];

  constructor(
    readonly request: string,
    readonly handler: ResponseHandler,
  ) {
    this.tally = handler.tally;
  }

  abort(err: Error): void {
    if (this.done) return;
    if (this.connection) return this.connection.abort(err);
    // Still queued: settle it now; the queue skips it later.
    this.done = true;
    this.handler.onError(err);
  }

  onHeaders(status: number, headers: ResponseHeaders): void {
    this.handler.onHeaders(status, headers);
  }

  onData(chunk: Buffer): void {
    this.handler.onData(chunk);
  }

  onComplete(): void {
    this.done = true;
    this.handler.onComplete();
  }

  onError(err: Error): void {
    this.done = true;
    this.handler.onError(err);
  }
}

/** Server hints are honoured with this much margin (undici's keepAliveTimeoutThreshold too). */
const SERVER_HINT_MARGIN_MS = 1_000;

export class Http1Pool {
  private readonly all = new Set<Http1Connection>();
  /** Idle connections, most recently used last (reused first: its socket is the warmest). */
  private readonly idle: Http1Connection[] = [];
  private queue: (Waiting | undefined)[] = [];
  private queueHead = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly options: PoolOptions,
  ) {}

  /** Connections open now (busy and idle). */
  get size(): number {
    return this.all.size;
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /** Sends `request` (a whole HTTP/1.1 request) on a free connection, or once one is free. */
  dispatch(request: string, handler: ResponseHandler): PooledExchange {
    const w = new Waiting(request, handler);
    if (this.closed) {
      w.onError(Object.assign(new Error('the connection pool is closed'), { code: 'UND_ERR_CLOSED' }));
      return w;
    }
    const free = this.take();
    if (free) this.run(free, w);
    else if (this.all.size < this.options.connections) this.run(this.open(), w);
    else this.queue.push(w);
    return w;
  }

  private run(connection: Http1Connection, w: Waiting): void {
    w.connection = connection;
    connection.send(w.request, w);
  }

  private take(): Http1Connection | undefined {
    const now = performance.now();
    while (this.idle.length > 0) {
      const c = this.idle.pop()!;
      if (c.alive && now - c.idleSince < this.keepAliveOf(c)) return c;
      c.abort(new Error('idle past its keep-alive bound'));
    }
    return undefined;
  }

  private keepAliveOf(c: Http1Connection): number {
    const hint = c.serverKeepAliveMs;
    return hint === undefined
      ? this.options.keepAliveMs
      : Math.min(this.options.keepAliveMs, hint - SERVER_HINT_MARGIN_MS);
  }

  private open(): Http1Connection {
    const c = new Http1Connection(this.port, this.host, this.options, this);
    this.all.add(c);
    return c;
  }

  private nextWaiting(): Waiting | undefined {
    while (this.queueHead < this.queue.length) {
      const w = this.queue[this.queueHead]!;
      // The slot lets go of it: a queue that lives long (in old space) would otherwise keep every
      // exchange it ever held, with its request, reply and promise, alive until the next compaction.
      this.queue[this.queueHead++] = undefined;
      if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.queueHead);
        this.queueHead = 0;
      }
      if (!w.done) return w;
    }
    return undefined;
  }

  /** Called by a connection once it can take another exchange, or is gone (`reusable` false). */
  released(connection: Http1Connection, reusable: boolean): void {
    if (!reusable) {
      this.all.delete(connection);
      const i = this.idle.indexOf(connection);
      if (i >= 0) this.idle.splice(i, 1);
      // A connection gone: a waiting exchange gets a fresh one.
      if (!this.closed && this.all.size < this.options.connections) {
        const w = this.nextWaiting();
        if (w) this.run(this.open(), w);
      }
      return;
    }
    const w = this.closed ? undefined : this.nextWaiting();
    if (w) return this.run(connection, w);
    connection.idleSince = performance.now();
    this.idle.push(connection);
    this.armSweeper();
  }

  /** Closes idle connections past their bound now and then, so an idle pool holds no sockets for long. */
  private armSweeper(): void {
    if (this.sweeper || this.closed) return;
    this.sweeper = setInterval(() => {
      const now = performance.now();
      for (const c of [...this.idle])
        if (now - c.idleSince >= this.keepAliveOf(c)) c.abort(new Error('idle past its keep-alive bound'));
      if (this.idle.length === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, 1_000).unref();
  }

  /** Fails every exchange (queued or running) with `err` and closes every connection. */
  close(err: Error): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (let w = this.nextWaiting(); w; w = this.nextWaiting()) w.abort(err);
    for (const c of [...this.all]) c.abort(err);
  }
}
