// Where the rig's Toxiproxy API comes from: `--toxiproxy auto|URL|embedded`. auto uses an external
// server only when the user named it (TOXIPROXY_URL); it never adopts whatever happens to answer on
// the docker-compose default port, which may be a stranger's process. Then a toxiproxy-server
// binary (TOXIPROXY_SERVER, else PATH) spawned on a free loopback port, then the embedded proxy. The
// chosen backend says what it is and why auto passed over the others, so results can record it.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Option } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { startEmbeddedToxiproxy } from './embedded/embeddedToxiproxy.ts';
import { spawnToxiproxyServer } from './toxiproxyServerProcess.ts';

export type ToxiproxyChoice =
  | { kind: 'auto' }
  | { kind: 'url'; url: string }
  | { kind: 'embedded' }
  /** A toxiproxy-server binary to spawn, no fallback (not a CLI value: tests pin the real server with it). */
  | { kind: 'spawn'; binary: string };

export type BackendKind = 'external' | 'spawned' | 'embedded';

export interface FaultBackend {
  readonly kind: BackendKind;
  /** Base URL of the Toxiproxy HTTP API. */
  readonly url: string;
  /** What GET /version answered. */
  readonly version: string;
  /** For the record: the URL, the binary that was spawned, or "in-process". */
  readonly detail: string;
  /** Why auto passed over the earlier candidates (empty unless auto chose). */
  readonly passedOver: readonly string[];
  /** Stops what we started (nothing, for an external server). */
  close(): Promise<void>;
}

export const DEFAULT_TOXIPROXY_URL = 'http://127.0.0.1:8474';
export const TOXIPROXY_BINARY_NAME = 'toxiproxy-server';

export function parseToxiproxyChoice(value: string): ToxiproxyChoice {
  if (value === 'auto' || value === 'embedded') return { kind: value };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`--toxiproxy must be auto, embedded or an http(s) URL of a Toxiproxy API, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError(`--toxiproxy URL must be http(s), got "${value}"`);
  }
  return { kind: 'url', url: value.replace(/\/+$/, '') };
}

/** The commander option every verb that injects faults shares. */
export function toxiproxyOption(): Option {
  return new Option(
    '--toxiproxy <auto|URL|embedded>',
    'where network faults come from: a Toxiproxy API URL, or embedded; ' +
      'auto = TOXIPROXY_URL if set, else a spawned toxiproxy-server, else embedded',
  )
    .argParser(parseToxiproxyChoice)
    .default({ kind: 'auto' } satisfies ToxiproxyChoice, 'auto');
}

async function probeVersion(url: string, timeoutMs: number): Promise<{ version: string } | { reason: string }> {
  try {
    const response = await fetch(`${url}/version`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { reason: `GET /version answered ${response.status}` };
    const body = (await response.json()) as { version?: unknown };
    if (typeof body.version !== 'string') return { reason: 'GET /version did not answer {"version": ...}' };
    return { version: body.version };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { reason: cause ?? (err as Error).name ?? String(err) };
  }
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** TOXIPROXY_SERVER if set (it must then be usable), else toxiproxy-server on PATH. */
export function findToxiproxyBinary(env: NodeJS.ProcessEnv = process.env): { path?: string; reason: string } {
  const configured = env.TOXIPROXY_SERVER;
  if (configured) {
    if (!isExecutableFile(configured)) {
      throw new UserError(`TOXIPROXY_SERVER=${configured} is not an executable file; fix it or unset it`);
    }
    return { path: configured, reason: 'TOXIPROXY_SERVER' };
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, TOXIPROXY_BINARY_NAME);
    if (isExecutableFile(candidate)) return { path: candidate, reason: 'PATH' };
  }
  return { reason: `TOXIPROXY_SERVER is unset and no ${TOXIPROXY_BINARY_NAME} is on PATH` };
}

function external(url: string, version: string, passedOver: string[]): FaultBackend {
  return { kind: 'external', url, version, detail: url, passedOver, close: async () => {} };
}

async function spawned(binary: string, passedOver: string[]): Promise<FaultBackend> {
  const server = await spawnToxiproxyServer(binary);
  return {
    kind: 'spawned',
    url: server.url,
    version: server.version,
    detail: `${binary} (pid ${server.pid})`,
    passedOver,
    close: () => server.close(),
  };
}

async function embedded(passedOver: string[]): Promise<FaultBackend> {
  const proxy = await startEmbeddedToxiproxy({ host: '127.0.0.1', port: 0 });
  return {
    kind: 'embedded',
    url: proxy.url,
    version: proxy.version,
    detail: 'in-process',
    passedOver,
    close: () => proxy.close(),
  };
}

export interface BackendOptions {
  /** Environment to read TOXIPROXY_URL, TOXIPROXY_SERVER and PATH from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * How long auto waits for an external server to answer (default 2 s). Nothing listening is
   * refused at once; this only bounds a listener that is slow or not Toxiproxy, and a busy box must
   * not make auto skip a real server.
   */
  probeTimeoutMs?: number;
  /**
   * The address a shared Toxiproxy usually has (docker-compose's). auto does not look there; it only
   * names it in passedOver, to say how to use a server there. Tests point it at a port of their own.
   */
  defaultUrl?: string;
}

export async function openFaultBackend(choice: ToxiproxyChoice, options: BackendOptions = {}): Promise<FaultBackend> {
  const env = options.env ?? process.env;
  if (choice.kind === 'embedded') return embedded([]);
  if (choice.kind === 'spawn') return spawned(choice.binary, []);
  if (choice.kind === 'url') {
    const probe = await probeVersion(choice.url, 2_000);
    if ('reason' in probe) {
      throw new UserError(
        `no Toxiproxy answers at ${choice.url} (${probe.reason}); start one or use --toxiproxy embedded`,
      );
    }
    return external(choice.url, probe.version, []);
  }
  const passedOver: string[] = [];
  const named = env.TOXIPROXY_URL?.replace(/\/+$/, '');
  if (named) {
    const probe = await probeVersion(named, options.probeTimeoutMs ?? 2_000);
    if ('version' in probe) return external(named, probe.version, passedOver);
    passedOver.push(`TOXIPROXY_URL: no Toxiproxy at ${named} (${probe.reason})`);
  } else {
    const usual = options.defaultUrl ?? DEFAULT_TOXIPROXY_URL;
    passedOver.push(
      'no external Toxiproxy: TOXIPROXY_URL is unset, and auto never adopts an unnamed server ' +
        `(one at ${usual} is used only as --toxiproxy ${usual} or TOXIPROXY_URL=${usual})`,
    );
  }
  const binary = findToxiproxyBinary(env);
  if (binary.path) {
    try {
      return await spawned(binary.path, passedOver);
    } catch (err) {
      passedOver.push((err as Error).message);
    }
  } else {
    passedOver.push(binary.reason);
  }
  return embedded(passedOver);
}
