// Bounds on open TCP connections, per client IP and in total (issue 14 item 4): a crowd of idle or
// slow sockets from one address cannot take every file descriptor, and the whole crowd cannot take
// the process past its descriptor limit. A socket beyond a bound is destroyed on 'connection', in
// the same tick it was accepted, so not one byte of it is read; it is counted by reason.
import type { Socket } from 'node:net';

/**
 * Per client IP. The rig's own legitimate load all comes from 127.0.0.1 and its biggest, the
 * duplicate-flood scenario's full profile, pools 8 × 64 = 512 connections to the agent through the
 * proxy, beside the engine's own clients (32 + 4) and any event streams: 512 would shed it, so
 * twice that. An attacker from one address is held to 1,024 sockets (~1,024 descriptors).
 */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 1_024;
/** In total: four such clients, and well under the 20,000-descriptor soft limit seen on CI boxes
 * (a lower `ulimit -n` wants a lower --max-connections: node fails accept() with EMFILE past it). */
export const DEFAULT_MAX_CONNECTIONS = 4_096;

export type ShedReason = 'per-client' | 'total';

export interface ConnectionBounds {
  /** Open connections in total; Infinity: no bound (the `no-connection-limit` fault). */
  maxConnections: number;
  /** Open connections from one client IP (remoteAddress); Infinity: no bound. */
  maxConnectionsPerClient: number;
}

/** The client a socket counts against: its remote IP, an IPv4-mapped IPv6 address as its IPv4. */
export function clientKey(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined) return 'unknown';
  return remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.') ? remoteAddress.slice(7) : remoteAddress;
}

export class ConnectionLimiter {
  private readonly perClient = new Map<string, number>();
  private count = 0;

  constructor(
    private readonly bounds: ConnectionBounds,
    private readonly onShed: (reason: ShedReason) => void,
  ) {}

  /** Open connections admitted and not yet closed. */
  get open(): number {
    return this.count;
  }

  /** Counts the socket until it closes, or destroys it at once when a bound is reached (false). */
  admit(socket: Socket): boolean {
    const client = clientKey(socket.remoteAddress);
    const mine = this.perClient.get(client) ?? 0;
    // Per client first: an address at its own bound is told so even when the total is full too.
    const reason: ShedReason | undefined =
      mine >= this.bounds.maxConnectionsPerClient
        ? 'per-client'
        : this.count >= this.bounds.maxConnections
          ? 'total'
          : undefined;
    if (reason !== undefined) {
      socket.destroy();
      this.onShed(reason);
      return false;
    }
    this.perClient.set(client, mine + 1);
    this.count += 1;
    socket.once('close', () => {
      this.count -= 1;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left <= 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    });
    return true;
  }
}
