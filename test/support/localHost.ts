// Small facts about this machine that several tests need: a loopback port nobody listens on, and
// whether a process is still alive.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports are picked below the kernel's ephemeral range. A port from listen(0) lies inside it, and
 * once released, any outgoing connection of a test running beside this one may take it as its
 * source port, so a server started there later (an agent restarted on its old port, a container
 * started minutes after the pick) fails with EADDRINUSE. Below the range only explicit binds
 * compete; each vitest worker draws from its own slice, so two workers never pick the same port.
 */
const LOWEST = 10_000;
const SLICES = 8;
const handedOut = new Set<number>();

function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

async function bindable(port: number): Promise<number | undefined> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return undefined;
  const { port: actual } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return actual;
}

/** A loopback port nothing listens on (bound, then released), outside the ephemeral range when it can be. */
export async function freePort(): Promise<number> {
  const sliceSize = Math.floor((ephemeralStart() - LOWEST) / SLICES);
  if (sliceSize >= 100) {
    const slice = (Number(process.env.VITEST_POOL_ID ?? 1) - 1 + SLICES) % SLICES;
    const first = LOWEST + slice * sliceSize;
    const offset = Math.floor(Math.random() * sliceSize);
    for (let i = 0; i < sliceSize; i++) {
      const port = first + ((offset + i) % sliceSize);
      if (handedOut.has(port)) continue;
      if ((await bindable(port)) !== undefined) {
        handedOut.add(port);
        return port;
      }
    }
  }
  return (await bindable(0))!;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
