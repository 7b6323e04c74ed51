// One proxy (Go's Proxy): a listener that, for every client it accepts, dials the upstream and
// joins the two sockets with a ToxicLink per direction. Disabling it closes the listener (new
// clients are refused) and every open connection.
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { AsyncMutex } from './asyncMutex.ts';
import {
  dialHost,
  formatAddress,
  listenErrorMessage,
  resolveListen,
  resolvedListenString,
  splitHostPort,
  type HostPort,
} from './listenAddress.ts';
import { closeNow } from './socketClosing.ts';
import { ToxicCollection, toxicJson, type ToxicJson } from './toxicCollection.ts';

export interface ProxyJson {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
  /** The real server leaks its logger field as an empty object; clients tolerate it, so we send it too. */
  Logger: Record<string, never>;
  toxics: ToxicJson[];
}

export interface ProxySettings {
  listen: string;
  upstream: string;
  enabled: boolean;
}

export class ProxyAlreadyStartedError extends Error {
  constructor() {
    super('Proxy already started');
  }
}

// Go's net.Conn defaults: no Nagle, keep-alive probes after 15 s.
const SOCKET_OPTIONS = { noDelay: true, keepAlive: true, keepAliveInitialDelay: 15_000 } as const;

export class ProxyListener {
  enabled = false;
  readonly toxics = new ToxicCollection();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly mutex = new AsyncMutex();

  constructor(
    readonly name: string,
    public listen: string,
    public upstream: string,
  ) {}

  toJSON(): ProxyJson {
    const { name, listen, upstream, enabled } = this;
    return { name, listen, upstream, enabled, Logger: {}, toxics: this.toxics.list().map(toxicJson) };
  }

  start(): Promise<void> {
    return this.mutex.run(() => this.startLocked());
  }

  stop(): Promise<void> {
    return this.mutex.run(() => this.stopLocked());
  }

  /** Whether `other` names a different listen address (after resolving) or upstream. */
  async differs(other: { listen: string; upstream: string }): Promise<boolean> {
    const resolved = await resolvedListenString(other.listen);
    return this.listen !== resolved || this.upstream !== other.upstream;
  }

  /** PATCH /proxies/{name}: a new address or upstream restarts it; `enabled` starts or stops it. */
  update(input: ProxySettings): Promise<void> {
    return this.mutex.run(async () => {
      if (await this.differs(input)) {
        await this.stopLocked();
        this.listen = input.listen;
        this.upstream = input.upstream;
      }
      if (input.enabled !== this.enabled) {
        if (input.enabled) await this.startLocked();
        else await this.stopLocked();
      }
    });
  }

  private async startLocked(): Promise<void> {
    if (this.enabled) throw new ProxyAlreadyStartedError();
    let target: HostPort;
    try {
      target = await resolveListen(this.listen);
    } catch (err) {
      throw new Error(`listen tcp: ${(err as Error).message}`, { cause: err });
    }
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: true, ...SOCKET_OPTIONS }, (client) =>
      this.accept(server, client),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => reject(new Error(listenErrorMessage(target, err))));
      server.listen({ host: target.host === '' ? undefined : target.host, port: target.port }, resolve);
    });
    server.on('error', () => {}); // after listening, errors are per connection and handled there
    this.server = server;
    this.listen = formatAddress(server.address() as AddressInfo);
    this.enabled = true;
  }

  private async stopLocked(): Promise<void> {
    if (!this.enabled) return;
    this.enabled = false;
    const server = this.server!;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) closeNow(socket);
    this.sockets.clear();
    await closed;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => {}); // an error is followed by 'close', which is what the links act on
    socket.once('close', () => this.sockets.delete(socket));
  }

  private accept(server: Server, client: Socket): void {
    if (this.server !== server) {
      client.destroy();
      return;
    }
    this.track(client);
    let target: HostPort;
    try {
      target = splitHostPort(this.upstream);
    } catch {
      client.destroy();
      return;
    }
    const upstream = createConnection({
      host: dialHost(target.host),
      port: target.port,
      allowHalfOpen: true,
      ...SOCKET_OPTIONS,
    });
    this.track(upstream);
    const refused = () => client.destroy(); // Go closes the client when the upstream dial fails
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      if (this.server !== server || client.destroyed) {
        closeNow(upstream);
        closeNow(client);
        return;
      }
      this.toxics.startLink('upstream', client, upstream);
      this.toxics.startLink('downstream', upstream, client);
    });
  }
}
