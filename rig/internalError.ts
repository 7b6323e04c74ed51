// A bug in the rig (anything but a UserError) is not a failed check: it exits with its own code
// (EXIT.internal), says so in one line on stderr, and leaves the stack in a file — error.log in
// the run's results directory when there is one, else a temp file — so a CI log shows what broke
// and where to look, not a wall of stack frames.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** An internal error whose stack is already written to `logPath`. */
export class LoggedInternalError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly logPath: string,
  ) {
    super(firstLine(cause));
    this.name = 'LoggedInternalError';
  }
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.split('\n')[0]!.slice(0, 500);
}

function stackText(err: unknown): string {
  const stack = err instanceof Error ? (err.stack ?? String(err)) : String(err);
  const where = `node ${process.version}, ${process.platform}-${process.arch}`;
  const argv = process.argv.slice(2).join(' ');
  return `a2a-rig internal error at ${new Date().toISOString()} (${where})\nargv: ${argv}\n\n${stack}\n`;
}

/**
 * Writes the stack to `dir`/error.log (or a temp file when `dir` is absent or unwritable); returns
 * the error to throw.
 */
export function logInternalError(err: unknown, dir?: string): LoggedInternalError {
  if (err instanceof LoggedInternalError) return err;
  const text = stackText(err);
  if (dir) {
    try {
      const path = join(dir, 'error.log');
      writeFileSync(path, text);
      return new LoggedInternalError(err, path);
    } catch {
      // fall through to a temp file: the stack must land somewhere
    }
  }
  const path = join(mkdtempSync(join(tmpdir(), 'a2a-rig-error-')), 'error.log');
  writeFileSync(path, text);
  return new LoggedInternalError(err, path);
}

/** The one line for stderr. */
export function internalErrorLine(err: LoggedInternalError): string {
  return `a2a-rig: internal error: ${err.message} (stack in ${err.logPath})`;
}
