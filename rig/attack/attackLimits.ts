// The two things every attack must respect whatever its params: it goes only to loopback, from
// loopback, and it never opens more sockets than the process can hold. Attack sockets share one
// budget per process (the engine may run several attacks at once beside its own legitimate client),
// taken from the fd soft limit with headroom for everything else the rig keeps open.
import { readdirSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { UserError } from '../protocol/userError.ts';
import type { AttackTarget } from './attackTypes.ts';

/**
 * 127.0.0.0/8, ::1 and ::ffff:127.x.y.z. Names (even `localhost`) are refused: resolving one could
 * pick the other family or leave the machine.
 */
export function isLoopbackAddress(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) {
    const lower = h.toLowerCase();
    if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped !== null && mapped[1].startsWith('127.');
  }
  return false;
}

/** Throws one line when the target or the source is not loopback (attack traffic never leaves the machine). */
export function assertLoopbackTarget(target: AttackTarget): void {
  for (const [what, url] of [
    ['base URL', target.baseUrl],
    ['endpoint', target.endpoint],
  ] as const) {
    if (url.protocol !== 'http:')
      throw new UserError(`attack ${what} ${url.href}: attacks speak plain http: to a loopback agent only`);
    if (!isLoopbackAddress(url.hostname))
      throw new UserError(
        `attack ${what} ${url.href} is not a loopback IP address (127.0.0.0/8, ::1): ` +
          'attack traffic never leaves this machine',
      );
  }
  const source = target.sourceAddress;
  if (isIP(source) === 0 || !isLoopbackAddress(source))
    throw new UserError(
      `attack source address ${JSON.stringify(source)} is not a loopback IP address (127.0.0.0/8, ::1)`,
    );
  const targetV6 = isIP(target.baseUrl.hostname.replace(/^\[|\]$/g, '')) === 6;
  if (targetV6 !== (isIP(source) === 6))
    throw new UserError(`attack source ${source} and target ${target.baseUrl.host} are not the same IP family`);
}

/** The process's open-file soft limit (Linux /proc; 1024 when it cannot be read, the common default). */
export function fdSoftLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft === 'unlimited') return 1_048_576;
    const n = Number(soft);
    return Number.isFinite(n) && n > 0 ? n : 1024;
  } catch {
    return 1024;
  }
}

function openFds(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return 64;
  }
}

/**
 * Sockets all attacks of this process may hold at once: half of what the soft limit leaves after the
 * fds open now (the rig's legitimate client, the proxy, files and the agent child need the rest),
 * at least 16.
 */
export function attackSocketCap(): number {
  return Math.max(16, Math.floor((fdSoftLimit() - openFds()) / 2));
}

class SocketBudget {
  private cap: number | undefined;
  open = 0;
  refusals = 0;

  get limit(): number {
    return (this.cap ??= attackSocketCap());
  }

  /** Lowers (or, with undefined, recomputes) the cap: for tests, and an embedder that needs fds for itself. */
  capAt(limit: number | undefined): void {
    this.cap = limit;
  }

  take(): boolean {
    if (this.open >= this.limit) {
      this.refusals++;
      return false;
    }
    this.open++;
    return true;
  }

  give(): void {
    this.open--;
  }
}

/** The process-wide budget every attack socket is taken from and given back to. */
export const socketBudget = new SocketBudget();

export function budgetNote(): string {
  return (
    `attack sockets are capped at ${socketBudget.limit} open at once ` +
    `(half the fd soft limit ${fdSoftLimit()} left after the fds already open)`
  );
}
