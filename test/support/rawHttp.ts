// A raw TCP client for hostile-client tests: sends bytes no well-behaved HTTP library would send
// (broken targets, trickled headers, stalled bodies) and reports what came back and when the server
// closed. Every wait is bounded. Also a health probe of the agent card, timed.
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawReply {
  /** The first line the server sent ("HTTP/1.1 400 Bad Request"), '' if none. */
  statusLine: string;
  status: number | undefined;
  data: string;
  /** ms from connect until the server closed the socket; undefined if it was still open at the bound. */
  closedAfterMs: number | undefined;
}

/** Opens a socket to 127.0.0.1:port; resolves once connected. */
export function rawSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends `chunks` (with `gapMs` between them, if any), then waits until the server closes or `boundMs`
 * passes. With `stopAtReply`, resolves as soon as a complete status line arrived; with `stopWhen`,
 * as soon as the data received satisfies it.
 */
export async function rawExchange(
  port: number,
  chunks: Array<string | Buffer>,
  opts: { gapMs?: number; boundMs?: number; stopAtReply?: boolean; stopWhen?: (data: string) => boolean } = {},
): Promise<RawReply> {
  const socket = await rawSocket(port);
  const started = performance.now();
  let data = '';
  let stopped = false;
  const result = new Promise<RawReply>((resolve) => {
    const finish = (closed: boolean) => {
      if (stopped) return;
      stopped = true;
      clearTimeout(bound);
      const statusLine = data.split('\r\n')[0] ?? '';
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      resolve({
        statusLine,
        status: status ? Number(status) : undefined,
        data,
        closedAfterMs: closed ? performance.now() - started : undefined,
      });
      socket.destroy();
    };
    const bound = setTimeout(() => finish(false), opts.boundMs ?? 5_000);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if ((opts.stopAtReply && data.includes('\r\n')) || opts.stopWhen?.(data)) finish(false);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
  });
  (async () => {
    for (const [i, chunk] of chunks.entries()) {
      if (stopped || socket.destroyed) return;
      if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
      if (stopped || socket.destroyed) return;
      socket.write(chunk);
    }
  })();
  return result;
}

/** Time (ms) for GET /.well-known/agent-card.json on a fresh connection; throws past `boundMs`. */
export async function probeCard(baseUrl: string, boundMs = 5_000): Promise<number> {
  const started = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = get(`${baseUrl}/.well-known/agent-card.json`, { agent: false, timeout: boundMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error(`health probe got no answer within ${boundMs} ms`)));
    req.on('error', reject);
  });
  if (status !== 200) throw new Error(`health probe answered ${status}`);
  return performance.now() - started;
}

/**
 * The best of `tries` consecutive probes. On a loaded 2-core box one probe can lose the CPU to
 * another process for longer than the property being measured; the agent's own event loop being
 * free is what the best of a few shows.
 */
export async function bestProbe(baseUrl: string, tries = 3): Promise<{ best: number; all: number[] }> {
  const all: number[] = [];
  for (let i = 0; i < tries; i++) all.push(await probeCard(baseUrl));
  return { best: Math.min(...all), all };
}
