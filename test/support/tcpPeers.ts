// Loopback TCP endpoints that record what happens to them (bytes with arrival times, FIN, RST,
// close), so proxy tests can assert on observable effects and wait for them with a bound.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export class RecordedSocket {
  readonly reads: { data: Buffer; at: number }[] = [];
  readonly openedAt = performance.now();
  endedAt: number | null = null;
  closedAt: number | null = null;
  error: NodeJS.ErrnoException | null = null;
  errorAt: number | null = null;
  private readonly watchers = new Set<() => void>();

  constructor(readonly socket: Socket) {
    socket.on('data', (data: Buffer) => {
      this.reads.push({ data, at: performance.now() });
      this.notify();
    });
    socket.on('end', () => {
      this.endedAt = performance.now();
      this.notify();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      this.error = err;
      this.errorAt = performance.now();
      this.notify();
    });
    socket.on('close', () => {
      this.closedAt = performance.now();
      this.notify();
    });
  }

  get received(): Buffer {
    return Buffer.concat(this.reads.map((r) => r.data));
  }

  get text(): string {
    return this.received.toString('utf8');
  }

  /** Ended by FIN, reset, or closed: whatever the peer did, this side is finished. */
  get finished(): boolean {
    return this.endedAt !== null || this.closedAt !== null || this.error !== null;
  }

  /** Resolves once `condition` holds; rejects after `timeoutMs` saying what it waited for. */
  until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
      };
      this.watchers.add(check);
    });
  }

  untilBytes(count: number, timeoutMs?: number): Promise<void> {
    return this.until(() => this.received.length >= count, `${count} bytes (have ${this.received.length})`, timeoutMs);
  }

  untilFinished(timeoutMs?: number): Promise<void> {
    return this.until(() => this.finished, 'the connection to end', timeoutMs);
  }

  /** When this side saw the connection end (FIN, RST or close), whichever came first. */
  get finishedAt(): number | null {
    const times = [this.endedAt, this.closedAt, this.errorAt].filter((t): t is number => t !== null);
    return times.length > 0 ? Math.min(...times) : null;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

export interface RecordingServer {
  port: number;
  address: string;
  peers: RecordedSocket[];
  /** The n-th accepted connection (0-based), waiting for it with a bound. */
  peer(index: number, timeoutMs?: number): Promise<RecordedSocket>;
  close(): Promise<void>;
}

/** A loopback server; `onConnection` decides what each accepted peer does (default: echo). */
export async function startRecordingServer(
  onConnection: (peer: RecordedSocket) => void = (peer) => peer.socket.pipe(peer.socket),
): Promise<RecordingServer> {
  const peers: RecordedSocket[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    const peer = new RecordedSocket(socket);
    peers.push(peer);
    onConnection(peer);
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    address: `127.0.0.1:${port}`,
    peers,
    peer(index, timeoutMs = 5_000) {
      if (peers[index]) return Promise.resolve(peers[index]);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!peers[index]) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(peers[index]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no connection #${index} reached the upstream within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const peer of peers) peer.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects to a "host:port" address; resolves once connected, rejects with the socket error. */
export function connectRecorded(address: string, timeoutMs = 5_000): Promise<RecordedSocket> {
  const colon = address.lastIndexOf(':');
  const socket = createConnection({
    host: address.slice(0, colon),
    port: Number(address.slice(colon + 1)),
    allowHalfOpen: true,
    noDelay: true,
  });
  const recorded = new RecordedSocket(socket);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`could not connect to ${address} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(recorded);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
