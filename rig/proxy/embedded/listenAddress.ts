// Host:port handling with Go's net package semantics, since listen addresses round-trip through
// the API: how they are split, resolved ("localhost" is 127.0.0.1), printed ("[::1]:80") and how
// failures read ("listen tcp 127.0.0.1:1: bind: address already in use").
import { lookup } from 'node:dns/promises';
import { isIP, type AddressInfo } from 'node:net';

export interface HostPort {
  host: string;
  port: number;
}

/** Go's net.SplitHostPort plus a numeric port; the message matches Go's "address X: ..." errors. */
export function splitHostPort(address: string): HostPort {
  let host: string;
  let port: string;
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    if (close < 0) throw new Error(`address ${address}: missing ']' in address`);
    if (address[close + 1] !== ':') throw new Error(`address ${address}: missing port in address`);
    host = address.slice(1, close);
    port = address.slice(close + 2);
  } else {
    const colon = address.lastIndexOf(':');
    if (colon < 0) throw new Error(`address ${address}: missing port in address`);
    host = address.slice(0, colon);
    port = address.slice(colon + 1);
    if (host.includes(':')) throw new Error(`address ${address}: too many colons in address`);
  }
  if (!/^\d+$/.test(port)) throw new Error(`lookup tcp/${port}: unknown port`);
  const number = Number(port);
  if (number > 65535) throw new Error(`address ${address}: invalid port`);
  return { host, port: number };
}

// What "localhost" is, for listening and for dialling alike. Node would ask getaddrinfo on every
// dial (slow on a process's first: docs/testing.md, proxy.embeddedDial), where Go's resolver reads
// /etc/hosts once.
const LOCALHOST = '127.0.0.1';

/** The host to dial for an upstream's host: localhost (or none, as Go dials ":port") without a lookup. */
export function dialHost(host: string): string {
  return host === '' || host === 'localhost' ? LOCALHOST : host;
}

/** Go's TCPAddr.String(). */
export function joinHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

export function formatAddress(address: AddressInfo): string {
  return joinHostPort(address.address, address.port);
}

/** Resolves the host the way Go's ResolveTCPAddr does for comparing listen addresses (":0" for no host). */
export async function resolveListen(listen: string): Promise<HostPort> {
  // An empty address is Go's ":0": every interface, a free port (the real server's default listen).
  const { host, port } = listen === '' ? { host: '', port: 0 } : splitHostPort(listen);
  if (host === '') return { host, port };
  if (host === 'localhost') return { host: LOCALHOST, port };
  if (isIP(host) === 6) return { host: new URL(`http://[${host}]/`).hostname.slice(1, -1), port };
  if (isIP(host) === 4) return { host, port };
  const resolved = await lookup(host, { family: 4 }).catch(() => lookup(host));
  return { host: resolved.address, port };
}

export async function resolvedListenString(listen: string): Promise<string> {
  const { host, port } = await resolveListen(listen);
  return joinHostPort(host, port);
}

const BIND_ERRORS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'cannot assign requested address',
};

/** A listen failure worded as Go's net.Listen would word it. */
export function listenErrorMessage(target: HostPort, err: NodeJS.ErrnoException): string {
  const reason = (err.code && BIND_ERRORS[err.code]) ?? err.message;
  return `listen tcp ${joinHostPort(target.host, target.port)}: bind: ${reason}`;
}
