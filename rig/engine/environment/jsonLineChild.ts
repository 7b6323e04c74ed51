// A child process that says it is ready by printing one JSON line on stdout (`a2a-rig agent`
// prints `{"url": ..., "pid": ...}`, `a2a-rig proxy` `{"api": ...}`): spawned, its line awaited
// within a deadline, and when it dies or stays silent first, an error that names it, its exit
// code and what it wrote on stderr. A child that failed to start is killed and awaited; one that
// started is killed (-9) should this process exit while it runs, so none is left behind.
//
//   const agent = await startJsonLineChild<{ url: string }>(process.execPath, [CLI, 'agent', '--port', '0'], {
//     name: 'the agent',
//     timeoutMs: 20_000,
//   });
//   … agent.info.url …
//   await agent.stop(1_000);                                        // SIGTERM, SIGKILL after 1 s
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface JsonLineChildOptions {
  /** Names the child in errors: `${name} did not start within …`. */
  name: string;
  /** How long to wait for the line. */
  timeoutMs: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** 'pipe' gives the child a stdin pipe it may watch close (the agent's --exit-with-stdin); default 'ignore'. */
  stdin?: 'ignore' | 'pipe';
  /** Its own process group: a Ctrl-C on the terminal then reaches this process only. */
  detached?: boolean;
  /** Also copy its stderr to this process's as it arrives (a benchmark's child speaks to the user). */
  echoStderr?: boolean;
  /** Keep only the last this many characters of its stderr (default: all of it). */
  stderrTailChars?: number;
}

/** The child exited, stayed silent or printed something else before its JSON line. */
export class ChildStartError extends Error {
  constructor(
    message: string,
    /** Its exit code when it exited first (null if killed by a signal or still running when killed). */
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface JsonLineChild<T> {
  readonly child: ChildProcess;
  /** Its JSON line, parsed. */
  readonly info: T;
  /** Resolves with its exit code (null after a signal) once it has exited. */
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr so far (the tail, if bounded). */
  stderr(): string;
  /** SIGTERM, SIGKILL if it has not exited after graceMs; resolves once it has exited. */
  stop(graceMs: number): Promise<void>;
  /** SIGKILL; resolves once it has exited. */
  kill(): Promise<void>;
}

// Registered when this module loads, so before the exit handlers of modules that import it (which
// may remove what the children still use).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function reapOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

export async function startJsonLineChild<T>(
  command: string,
  args: readonly string[],
  options: JsonLineChildOptions,
): Promise<JsonLineChild<T>> {
  const { name, timeoutMs } = options;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (options.echoStderr) process.stderr.write(d);
    stderr += d.toString();
    if (options.stderrTailChars !== undefined) stderr = stderr.slice(-options.stderrTailChars);
  });
  const stop = async (graceMs: number) => {
    if (!alive(child) || child.pid === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    if (!alive(child) || child.pid === undefined) return; // exited, or never started (spawn failed)
    child.kill('SIGKILL');
    await exited;
  };

  let timer: NodeJS.Timeout | undefined;
  try {
    const line = await new Promise<string>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new ChildStartError(`${name} did not start within ${timeoutMs} ms: ${stderr}`, null, stderr)),
        timeoutMs,
      );
      // Read to the end even after the line: a child blocked on a full stdout pipe would hang.
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('error', (err) =>
        reject(new ChildStartError(`${name} could not be started: ${err.message}`, null, stderr)),
      );
      // 'close', not 'exit': by then its stderr has been read to the end.
      child.once('close', (code, signal) =>
        reject(new ChildStartError(`${name} exited (${code ?? signal}) before listening: ${stderr}`, code, stderr)),
      );
    });
    let info: T;
    try {
      info = JSON.parse(line) as T;
    } catch {
      throw new ChildStartError(
        `${name} printed ${JSON.stringify(line.slice(0, 200))} instead of its JSON line: ${stderr}`,
        null,
        stderr,
      );
    }
    return { child, info, exited, stderr: () => stderr, stop, kill };
  } catch (err) {
    await kill();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
