// The command line's way in to an agent behind auth: `--header 'Name: value'` (repeatable),
// `--header-file FILE`, `--ca-cert FILE`, `--insecure`, and `--activate URI` for extensions the
// agent requires. A value may name environment variables as `$NAME` or `${NAME}` (`$$` is a `$`),
// so a secret stays out of shell history: `--header 'Authorization: Bearer $TOKEN'`. Everything is
// checked before anything is sent; an error names the header, never its value.
import { readFileSync } from 'node:fs';
import { headerProblem, redactDeep, type Credentials } from './client/credentials.ts';
import type { RunObserver } from './results/runObserver.ts';
import { UserError } from './protocol/userError.ts';

export interface CredentialFlags {
  header: string[];
  headerFile?: string;
  caCert?: string;
  insecure?: boolean;
  activate: string[];
}

const ENV_REFERENCE = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** `value` with `$NAME` / `${NAME}` replaced from `env`; a variable not set is a usage error. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(ENV_REFERENCE, (whole, braced?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    const found = env[name];
    if (found === undefined)
      throw new UserError(`${where}: the environment variable ${name} is not set (write $$ for a literal $)`);
    return found;
  });
}

/** One `Name: value` line, its value expanded from the environment and checked. */
export function parseHeaderLine(line: string, env: NodeJS.ProcessEnv, where: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new UserError(`${where}: a header is written 'Name: value', got no "Name:"`);
  const name = line.slice(0, colon).trim();
  const value = expandEnv(line.slice(colon + 1).trim(), env, `${where} (${name})`);
  const problem = headerProblem(name, value);
  if (problem) throw new UserError(`${where}: ${problem}`);
  return [name, value];
}

/** The `Name: value` lines of a header file; blank lines and `#` comments are skipped. */
export function readHeaderFile(path: string, env: NodeJS.ProcessEnv): [string, string][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`--header-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const headers: [string, string][] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    headers.push(parseHeaderLine(line, env, `--header-file ${path} line ${i + 1}`));
  });
  return headers;
}

function readCa(path: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (err) {
    throw new UserError(`--ca-cert ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!pem.toString('latin1').includes('-----BEGIN CERTIFICATE-----'))
    throw new UserError(`--ca-cert ${path}: not a PEM certificate (no "-----BEGIN CERTIFICATE-----")`);
  return pem;
}

/** The credentials the flags give (the header file's lines first, then each --header). */
export function credentialsFromFlags(flags: Partial<CredentialFlags>, env = process.env): Credentials {
  if (flags.insecure && flags.caCert) throw new UserError('--ca-cert and --insecure contradict each other: give one');
  const headers = [
    ...(flags.headerFile === undefined ? [] : readHeaderFile(flags.headerFile, env)),
    // Named by position: the text may be a secret typed without its name.
    ...(flags.header ?? []).map((h, i) => parseHeaderLine(h, env, `--header #${i + 1}`)),
  ];
  return {
    headers,
    ...(flags.caCert === undefined ? {} : { ca: readCa(flags.caCert) }),
    ...(flags.insecure ? { insecure: true } : {}),
  };
}

/** What the flags give every path to the target; says once on stderr that `--insecure` verifies nothing. */
export function accessFromFlags(
  flags: Partial<CredentialFlags>,
  say = (line: string) => process.stderr.write(`${line}\n`),
): { credentials: Credentials; activate: string[] } {
  const credentials = credentialsFromFlags(flags);
  if (credentials.insecure)
    say("a2a-rig: --insecure: the agent's TLS certificate is not verified; anyone on the path can read the headers");
  return { credentials, activate: flags.activate ?? [] };
}

/** `--activate URI`: an absolute URI, as extensions are named. */
export function parseActivate(value: string, previous: string[]): string[] {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value) || !URL.canParse(value) || /[\s,]/.test(value))
    throw new UserError(`--activate takes an extension's URI, got "${value}"`);
  return previous.includes(value) ? previous : [...previous, value];
}

/** The run observer's text-bearing news (what the progress display prints) with header values redacted. */
export function redactedObserver(observer: RunObserver, credentials: Credentials): RunObserver {
  if (credentials.headers.length === 0) return observer;
  return {
    onScenarioStart: (e) => observer.onScenarioStart?.(e),
    onTraffic: (e) => observer.onTraffic?.(e),
    onLog: (e) => observer.onLog?.(redactDeep(e, credentials)),
    onScenarioEnd: (e) => observer.onScenarioEnd?.(redactDeep(e, credentials)),
  };
}
