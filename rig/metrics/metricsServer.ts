// Serves a prom-client registry at GET /metrics on loopback for as long as a run lasts.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import type { Registry } from 'prom-client';
import { UserError } from '../protocol/userError.ts';

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function serveMetrics(registry: Registry, port: number, host = '127.0.0.1'): Promise<MetricsServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      return res.end('a2a-rig serves only GET /metrics here\n');
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      },
      (err: Error) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`${err.message}\n`);
      },
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(port, host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err))]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UserError(`--metrics-port ${port}: the port is in use on ${host}; pick another (0 picks a free one)`);
    if (code === 'EACCES')
      throw new UserError(`--metrics-port ${port}: not allowed to listen there; pick a port above 1023`);
    throw err;
  }
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${actual}/metrics`,
    port: actual,
    async close() {
      server.close();
      for (const socket of sockets) socket.destroy();
      await once(server, 'close').catch(() => {});
    },
  };
}
