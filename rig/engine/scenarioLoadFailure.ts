// Where and why a scenario file failed to load, as one line `file:line:col: message` (columns
// 1-based, as editors and Node's stack frames count), read from what the import threw:
// - esbuild (through tsx) could not transform it: its first error's location (in `errors[]` when
//   thrown in this thread; in the message, `file:line:col: ERROR: text` with a 0-based column,
//   when it crossed from the module hooks' thread);
// - it threw while it ran (a top-level throw, defineScenario() refusing it): the first stack frame
//   in the scenario's directory;
// - Node could not parse or link a JavaScript file (a SyntaxError with no frame): the position
//   `node --check` reports, or the line importing a name the module does not export.
// Never the loader's stack: its frames are the rig's and esbuild's, not the author's.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LoadFailure {
  /** Where it failed, absolute: the scenario file, or a module it imports. */
  file: string;
  /** 1-based, when known. */
  line?: number;
  column?: number;
  /** One line. */
  message: string;
  /** The error's frames in the scenario's directory (`    at fn (file:line:col)`), when it had any. */
  stack?: string;
}

/** Where a file is shown: relative to the working directory when under it, else absolute. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `file:line:col: message`, as `list` shows it and results.json's reason records it. */
export function failureText(failure: LoadFailure): string {
  const at = failure.line ? `:${failure.line}:${failure.column ?? 1}` : '';
  return `${displayPath(failure.file)}${at}: ${failure.message}`;
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
};

const pathOf = (location: string): string =>
  location.startsWith('file:') ? fileURLToPath(location) : resolve(location);

interface Frame {
  file: string;
  line: number;
  column: number;
  text: string;
}

/** The stack's frames in `dir` (a scenario's directory), in order. */
function framesIn(stack: string | undefined, dir: string): Frame[] {
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  const frames: Frame[] = [];
  for (const raw of (stack ?? '').split('\n')) {
    const m = /^\s*at (?:.*?\()?((?:file:\/\/)?\/[^()\s]*?):(\d+):(\d+)\)?\s*$/.exec(raw);
    if (!m) continue;
    const file = pathOf(m[1]!);
    if (file.startsWith(prefix))
      frames.push({ file, line: Number(m[2]), column: Number(m[3]), text: raw.trim().replace(/^at /, '') });
  }
  return frames;
}

/** The 1-based position of the first match of `what` in `file`, on a line that also matches `on`. */
function locate(file: string, what: RegExp, on: RegExp): { line: number; column: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  for (const [i, text] of lines.entries()) {
    const m = what.exec(text);
    if (m && on.test(text)) return { line: i + 1, column: m.index + 1 };
  }
  return undefined;
}

/** Where Node's parser stops in a JavaScript module: `node --check` prints the line and a caret under the column. */
function parsePosition(file: string): { line: number; column: number } | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const check = spawnSync(process.execPath, ['--input-type=module', '--check'], {
    input: source,
    encoding: 'utf8',
    timeout: 15_000,
  });
  const m = /^\[stdin\]:(\d+)\n.*\n( *)\^/m.exec(check.stderr ?? '');
  return check.status !== 0 && m ? { line: Number(m[1]), column: m[2]!.length + 1 } : undefined;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What an import of `file` (a scenario file of `dir`) threw, as a LoadFailure. */
export function failureOf(file: string, err: unknown, dir: string): LoadFailure {
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    errors?: Array<{ text?: string; location?: { file: string; line: number; column: number } | null }>;
  };
  const message = String(e.message ?? err);
  const esbuild = Array.isArray(e.errors) ? e.errors[0] : undefined;
  if (esbuild?.location) {
    return {
      file: pathOf(esbuild.location.file),
      line: esbuild.location.line,
      column: esbuild.location.column + 1,
      message: oneLine(esbuild.text ?? message),
    };
  }
  const transform = /^(.+):(\d+):(\d+): ERROR: (.+)$/m.exec(message);
  if (transform)
    return {
      file: pathOf(transform[1]!),
      line: Number(transform[2]),
      column: Number(transform[3]) + 1,
      message: oneLine(transform[4]!),
    };

  const name = typeof e.name === 'string' ? e.name : 'Error';
  const text = oneLine(name === 'Error' ? message : `${name}: ${message}`);
  const frames = framesIn(typeof e.stack === 'string' ? e.stack : undefined, dir);
  if (frames.length > 0) {
    const [at] = frames;
    return {
      file: at!.file,
      line: at!.line,
      column: at!.column,
      message: text,
      stack: `${text}\n${frames.map((f) => `    at ${f.text}`).join('\n')}`,
    };
  }
  // Node's own errors name the module that failed, not a frame.
  const importer = /imported from (\S+)\s*$/m.exec(message);
  const where = importer ? pathOf(importer[1]!) : file;
  const missingExport = /does not provide an export named '([^']+)'/.exec(message);
  const missingModule = /Cannot find (?:package|module) '([^']+)'|cannot import "([^"]+)"/.exec(message);
  // A relative import is named resolved (absolute): look for its last part as written.
  const specifier = missingModule
    ? (missingModule[1] ?? missingModule[2]!).replace(/^\/.*\//, '').replace(/\.[cm]?[jt]s$/, '')
    : '';
  const position = missingExport
    ? locate(where, new RegExp(`\\b${escaped(missingExport[1]!)}\\b`), /\bimport\b|\bfrom\b|^\s*\w+,?\s*$/)
    : missingModule
      ? locate(where, new RegExp(`['"](?:[^'"]*/)?${escaped(specifier)}(?:\\.[cm]?[jt]s)?['"]`), /./)
      : name === 'SyntaxError' && /\.m?js$/.test(where)
        ? parsePosition(where)
        : undefined;
  return { file: where, ...position, message: text };
}
