// The embedded Toxiproxy as one object: an API server on a loopback port over a fresh collection.
// Used in-process by the rig (`--toxiproxy embedded`) and alone by `a2a-rig proxy`.
import type { AddressInfo } from 'node:net';
import { createApiServer, EMBEDDED_TOXIPROXY_VERSION } from './apiServer.ts';
import { joinHostPort } from './listenAddress.ts';
import { ProxyCollection } from './proxyCollection.ts';

export { EMBEDDED_TOXIPROXY_VERSION };

export interface EmbeddedToxiproxy {
  /** Base URL of the API, e.g. http://127.0.0.1:8474. */
  readonly url: string;
  readonly version: string;
  /** Stops every proxy, cuts their connections, and closes the API server. */
  close(): Promise<void>;
}

export async function startEmbeddedToxiproxy(
  options: { host?: string; port?: number } = {},
): Promise<EmbeddedToxiproxy> {
  const host = options.host ?? '127.0.0.1';
  const collection = new ProxyCollection();
  const server = createApiServer(collection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${joinHostPort(address.address, address.port)}`,
    version: EMBEDDED_TOXIPROXY_VERSION,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await collection.clear();
        await closed;
      })();
      return closing;
    },
  };
}
