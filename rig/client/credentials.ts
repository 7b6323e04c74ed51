// What the user gives the rig to be let in: headers sent on every exchange with the target (an
// `Authorization`, an API key), a private CA to trust and whether to skip TLS verification. Each
// transport (JSON-RPC's own HTTP/1.1 pool, undici streams, the replay WebSocket, the load and attack
// paths) takes them through the helpers here, so every binding sends the same headers the same way.
// The values are secrets: nothing the rig writes may show them (`redactCredentials`).
import { rootCertificates, type ConnectionOptions } from 'node:tls';
import type { TransportError } from './transportError.ts';

export interface Credentials {
  /** `[name, value]` pairs, names as given (HTTP names are case-insensitive), in order. */
  headers: ReadonlyArray<readonly [name: string, value: string]>;
  /** PEM certificates trusted beside the system roots (`--ca-cert`). */
  ca?: Buffer;
  /** Skip certificate verification (`--insecure`). */
  insecure?: boolean;
}

/** What every path to the target is given: the user's credentials and `--activate` extensions. */
export interface TargetAccess {
  credentials?: Credentials;
  activate?: readonly string[];
  /** Told of each exchange the agent answered 401/403 (the run then judges nothing of that scenario). */
  onRefused?: (err: TransportError) => void;
}

export const NO_CREDENTIALS: Credentials = Object.freeze({ headers: Object.freeze([]) });

/**
 * Headers the rig sets itself on A2A requests: a user's copy would be sent twice or contradict the
 * rig's (and the framing and connection ones would corrupt the exchange or the WebSocket upgrade).
 */
export const RIG_SET_HEADERS: ReadonlySet<string> = new Set([
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'content-type',
  'content-length',
  'accept',
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
]);

function setByRig(name: string): boolean {
  const lower = name.toLowerCase();
  return RIG_SET_HEADERS.has(lower) || lower.startsWith('sec-websocket-');
}

/** An HTTP token (RFC 9110): what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Visible ASCII, spaces and tabs: what a value can carry without splitting or being refused. */
const HEADER_VALUE = /^[\t\x20-\x7e]{0,8192}$/;

/** Why a header cannot be sent, or undefined when it can. Names no value (values are secrets). */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `"${name.slice(0, 80)}" is not a header name`;
  if (setByRig(name)) return `${name} is set by the rig itself (the activation header is extended with --activate URI)`;
  if (!HEADER_VALUE.test(value)) return `the value of ${name} must be visible ASCII on one line, up to 8192 characters`;
  return undefined;
}

/** True when the user's headers carry an Authorization (a per-call bearer token then replaces it). */
function isAuthorization(name: string): boolean {
  return name.toLowerCase() === 'authorization';
}

/** The header lines (`name: value\r\n` each) for a hand-written HTTP/1.1 request. */
export function credentialHeaderLines(credentials: Credentials, withoutAuthorization = false): string {
  let block = '';
  for (const [name, value] of credentials.headers)
    if (!(withoutAuthorization && isAuthorization(name))) block += `${name}: ${value}\r\n`;
  return block;
}

/**
 * The headers as an object (undici, ws, autocannon). Repeated names are joined with ", " as HTTP
 * allows for list-valued fields.
 */
export function credentialHeaders(credentials: Credentials, withoutAuthorization = false): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of credentials.headers) {
    if (withoutAuthorization && isAuthorization(name)) continue;
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

/** TLS options of a connection to the target: the private CA beside the system roots, or no check. */
export function credentialTls(credentials: Credentials): Pick<ConnectionOptions, 'ca' | 'rejectUnauthorized'> {
  if (credentials.insecure) return { rejectUnauthorized: false };
  // Node's `ca` replaces the default roots: the system's are given again so public certificates still verify.
  if (credentials.ca) return { ca: [...rootCertificates, credentials.ca.toString('utf8')] };
  return {};
}

/** Shorter values are not searched for (a one-letter value would redact every word it occurs in). */
const MIN_REDACTED = 4;

/** What to hide of one value: all of it, and each word after a scheme (`Bearer <token>`: the token alone). */
function secretsOf(value: string): string[] {
  const words = value.trim().split(/\s+/);
  return [value.trim(), ...words.slice(1)].filter((s) => s.length >= MIN_REDACTED);
}

/** `text` with every header value of the credentials (and its token) replaced by `[redacted]`. */
export function redactCredentials(text: string, credentials: Credentials): string {
  let out = text;
  for (const [, value] of credentials.headers)
    for (const secret of secretsOf(value)) out = out.split(secret).join('[redacted]');
  return out;
}

/** Encoded data, not text (a histogram's base64): a short value could match inside it by chance. */
const BINARY_FIELDS: ReadonlySet<string> = new Set(['hdr']);

/** A JSON-like value (a run's results) with `redactCredentials` applied to every string in it. */
export function redactDeep<T>(value: T, credentials: Credentials): T {
  if (credentials.headers.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactCredentials(v, credentials);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, BINARY_FIELDS.has(k) ? x : walk(x)]));
    return v;
  };
  return walk(value) as T;
}
