// The A2A side of a request's headers: `A2A-Version: 1.0` for v1.0 (none for v0.3), the activated
// extensions in `A2A-Extensions` (v0.3: `X-A2A-Extensions`), a bearer token; the extensions the
// agent echoed back; and the header lines of a unary call, built once per distinct set.
import type { IncomingHttpHeaders } from 'node:http';
import { EXTENSIONS_HEADER_V03, EXTENSIONS_HEADER_V1, VERSION_HEADER, type Generation } from '../protocol/a2aTypes.ts';
import { headerValues } from './rpcReply.ts';
import { credentialHeaders, type TargetAccess } from './credentials.ts';

/** The A2A side of a request: which generation it speaks and which extensions it activates. */
export interface A2AHeaders {
  generation: Generation;
  extensions: readonly string[];
  /** Sent as `Authorization: Bearer <token>` (the acceptance extension authorizes decisions by it). */
  bearerToken?: string;
}

/** Visible ASCII, no space: what an HTTP header value can carry as a token without being split or refused. */
const BEARER_TOKEN = /^[\x21-\x7e]{1,4096}$/;

/** Refuses, in one line, a token undici would refuse deep in a request (or that would split the header). */
export function assertBearerToken(token: string): void {
  if (!BEARER_TOKEN.test(token))
    throw new TypeError('a bearer token must be 1 to 4096 visible ASCII characters without spaces');
}

/** The call's extensions, then each of `activate` (the user's `--activate`) not among them. */
export function activatedExtensions(extensions: readonly string[], activate: readonly string[]): string[] {
  return [...extensions, ...activate.filter((uri) => !extensions.includes(uri))];
}

/** The request headers of a generation and its activated extensions (also for the replay plane). */
export function a2aRequestHeaders(a2a: A2AHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  if (a2a.generation === '1.0') headers[VERSION_HEADER] = '1.0';
  if (a2a.extensions.length > 0)
    headers[a2a.generation === '1.0' ? EXTENSIONS_HEADER_V1 : EXTENSIONS_HEADER_V03] = a2a.extensions.join(', ');
  if (a2a.bearerToken !== undefined) {
    assertBearerToken(a2a.bearerToken);
    headers.authorization = `Bearer ${a2a.bearerToken}`;
  }
  return headers;
}

/**
 * The headers of a request built outside the JSON-RPC transport (replay socket, load generator,
 * attacks): the user's credentials, then the A2A headers with `--activate` extensions added.
 */
export function accessRequestHeaders(a2a: A2AHeaders, access: TargetAccess = {}): Record<string, string> {
  const extensions = activatedExtensions(a2a.extensions, access.activate ?? []);
  return {
    ...(access.credentials ? credentialHeaders(access.credentials, a2a.bearerToken !== undefined) : {}),
    ...a2aRequestHeaders({ ...a2a, extensions }),
  };
}

/** The echoed extensions: the generation's own header, else the other spelling. */
export function echoedExtensions(headers: IncomingHttpHeaders, generation: Generation): string[] {
  const [own, other] =
    generation === '1.0'
      ? [EXTENSIONS_HEADER_V1, EXTENSIONS_HEADER_V03]
      : [EXTENSIONS_HEADER_V03, EXTENSIONS_HEADER_V1];
  const values = headerValues(headers, own);
  return values.length > 0 ? values : headerValues(headers, other);
}

/**
 * `echoedExtensions` for the replies of one transport, which an agent echoes the same way nearly
 * every time: the list read from the last headers is kept, and a reply with the same header values
 * gets a copy of it instead of a fresh split.
 */
export class EchoedExtensions {
  private last: { v1: unknown; v03: unknown; generation: Generation; list: string[] } | undefined;

  of(headers: IncomingHttpHeaders, generation: Generation): string[] {
    const v1 = headers[EXTENSIONS_HEADER_V1];
    const v03 = headers[EXTENSIONS_HEADER_V03];
    const last = this.last;
    // Only single values are compared (a repeated header is an array, read afresh each time).
    const single = typeof v1 !== 'object' && typeof v03 !== 'object';
    if (single && last?.generation === generation && last.v1 === v1 && last.v03 === v03) return last.list.slice();
    const list = echoedExtensions(headers, generation);
    this.last = { v1, v03, generation, list: list.slice() };
    return list;
  }
}

/** Header values go into the request verbatim: visible ASCII, spaces and tabs only (no line breaks). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The A2A header lines of unary calls (`name: value\r\n` each), by the headers they carry. */
export class HeaderBlocks {
  /** Built blocks by their inputs (a client uses a handful). */
  private readonly blocks = new Map<string, string>();
  private lastHeaders: (A2AHeaders & { block: string }) | undefined;

  /** The A2A header lines of a call (`name: value\r\n` each), built once per distinct set. */
  of(a2a: A2AHeaders): string {
    // A client sends the same headers on almost every call: compared with the last set (a copy of
    // its extensions, so a caller's array changed in place is seen), that case skips building a key.
    const last = this.lastHeaders;
    if (
      last &&
      last.generation === a2a.generation &&
      last.bearerToken === a2a.bearerToken &&
      sameStrings(last.extensions, a2a.extensions)
    )
      return last.block;
    const block = this.build(a2a);
    this.lastHeaders = {
      extensions: [...a2a.extensions],
      generation: a2a.generation,
      bearerToken: a2a.bearerToken,
      block,
    };
    return block;
  }

  private build(a2a: A2AHeaders): string {
    const key = `${a2a.generation}\n${a2a.extensions.join(', ')}\n${a2a.bearerToken ?? ''}`;
    let block = this.blocks.get(key);
    if (block !== undefined) return block;
    block = '';
    for (const [name, value] of Object.entries(a2aRequestHeaders(a2a))) {
      if (!HEADER_VALUE.test(value))
        throw new TypeError(
          `the ${name} header value must be visible ASCII without line breaks: ${JSON.stringify(value.slice(0, 80))}`,
        );
      block += `${name}: ${value}\r\n`;
    }
    if (this.blocks.size >= 256) this.blocks.clear();
    this.blocks.set(key, block);
    return block;
  }
}
