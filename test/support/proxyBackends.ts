// The Toxiproxy servers a differential test runs against: always the embedded one, and the real Go
// server when a binary is found (TOXIPROXY_SERVER, PATH, or .tools/bin/server as .ci/run builds it).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findToxiproxyBinary, type ToxiproxyChoice } from '../../rig/proxy/backend.ts';
import { startEmbeddedToxiproxy } from '../../rig/proxy/embedded/embeddedToxiproxy.ts';
import { spawnToxiproxyServer } from '../../rig/proxy/toxiproxyServerProcess.ts';

export const repoRoot = new URL('../../', import.meta.url).pathname;

export interface ToxiproxyUnderTest {
  url: string;
  version: string;
  close(): Promise<void>;
}

export interface BackendCase {
  name: 'embedded' | 'real';
  /** Why this backend cannot run here, if it cannot. */
  skipReason?: string;
  start(): Promise<ToxiproxyUnderTest>;
}

export function realToxiproxyBinary(): { path?: string; reason: string } {
  const found = findToxiproxyBinary();
  // Absolute, so that a test may link to it from a directory of its own (TOXIPROXY_SERVER may be relative).
  if (found.path) return { ...found, path: resolve(found.path) };
  const local = `${repoRoot}.tools/bin/server`;
  if (existsSync(local)) return { path: local, reason: '.tools/bin/server' };
  return { reason: `${found.reason}, and there is no .tools/bin/server (install Go and run .ci/run to build it)` };
}

let pinned: ToxiproxyChoice | undefined;

/**
 * The fault backend engine tests run on, named outright rather than left to `auto`: the real
 * Toxiproxy spawned by the run when a binary is found, else the embedded proxy (saying why, once).
 * Nothing on the machine that happens to answer on some port can change what a test measures.
 */
export function pinnedToxiproxy(): ToxiproxyChoice {
  if (pinned) return pinned;
  const binary = realToxiproxyBinary();
  if (!binary.path) console.warn(`engine tests use the embedded proxy: ${binary.reason}`);
  pinned = binary.path ? { kind: 'spawn', binary: binary.path } : { kind: 'embedded' };
  return pinned;
}

let cases: BackendCase[] | undefined;

/** Embedded and real, the real one carrying a skip reason (printed once) when no binary is found. */
export function backendCases(): BackendCase[] {
  if (cases) return cases;
  const binary = realToxiproxyBinary();
  cases = [
    { name: 'embedded', start: () => startEmbeddedToxiproxy() },
    {
      name: 'real',
      skipReason: binary.path ? undefined : `real Toxiproxy tests skipped: ${binary.reason}`,
      start: () => spawnToxiproxyServer(binary.path!),
    },
  ];
  for (const c of cases) if (c.skipReason) console.warn(c.skipReason);
  return cases;
}

export interface ApiReply {
  status: number;
  contentType: string | null;
  text: string;
  json: any;
}

/** One call to a Toxiproxy API, raw enough to compare status codes and bodies. */
export async function callApi(baseUrl: string, method: string, path: string, body?: unknown): Promise<ApiReply> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), text, json };
}
