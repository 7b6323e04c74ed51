// The processes an A/B run starts: one `a2a-rig run` child per side and round, and, when a side is
// given as a command, that side's agent for the whole A/B run. Each child is in its own process
// group (a Ctrl-C on the terminal reaches `ab` alone, which stops its children in order) and writes
// its output to a log file beside its results, so the terminal shows the rounds, not the runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { EXIT } from '../exitCodes.ts';
import { RIG_CLI } from '../engine/rigPaths.ts';
import { UserError } from '../protocol/userError.ts';
import { readRunResult } from '../report/readRunResult.ts';
import type { RunResult } from '../results/runResult.ts';
import { RoundInterrupted } from './abRounds.ts';

const READY_TIMEOUT_MS = 30_000;
const READY_POLL_MS = 100;
const STOP_GRACE_MS = 5_000;

/** The last non-empty lines of a log, for an error that says what the child said. */
function tail(log: string, lines = 3): string {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').slice(-lines).join(' | ');
  } catch {
    return '(no output)';
  }
}

function spawnLogged(file: string, args: string[], log: string): ChildProcess {
  const fd = openSync(log, 'a');
  try {
    return spawn(file, args, { stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** Sends a signal to the child's whole group; a group already gone is not an error. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // ESRCH: it has exited.
  }
}

/** The child running now, so a signal to `ab` can be passed on to it. */
let current: ChildProcess | undefined;

/** Passes a signal to the round run in progress (it then records what it has and exits 130/143). */
export function interruptRound(signal: NodeJS.Signals): void {
  if (current) signalGroup(current, signal);
}

/**
 * Runs `a2a-rig run …args --out dir` and reads its results. A run that failed a check (1) or tested
 * nothing (3) is a result like any other; a usage error (2) or a rig bug (4) ends the A/B run with
 * what the child said; a signal ends it as interrupted.
 */
export async function runRound(args: string[], dir: string, log: string, label: string): Promise<RunResult> {
  const child = spawnLogged(process.execPath, [RIG_CLI, 'run', ...args, '--out', dir], log);
  current = child;
  const { code, signal } = await exited(child);
  current = undefined;
  if (signal || code === EXIT.SIGINT || code === EXIT.SIGTERM) throw new RoundInterrupted(`${label} was interrupted`);
  if (code === EXIT.usage) throw new UserError(`${label}: a2a-rig run refused its arguments: ${tail(log)}`);
  if (code !== EXIT.passed && code !== EXIT.failed && code !== EXIT.notTested)
    throw new Error(`${label}: a2a-rig run exited ${code}: ${tail(log)} (log: ${log})`);
  return readRunResult(dir);
}

export interface SideAgent {
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  const gone = exited(child);
  signalGroup(child, 'SIGTERM');
  const late = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
  await gone;
  clearTimeout(late);
}

/**
 * Starts a side's agent with a shell command and waits until `target`'s agent card answers 2xx
 * (polling: the command gives no other sign that it is ready). Refused, with the command's last
 * output, when it exits first or is not ready within 30 s.
 */
export async function startSideAgent(command: string, target: string, log: string, label: string): Promise<SideAgent> {
  const child = spawnLogged('/bin/sh', ['-c', command], log);
  const card = new URL('.well-known/agent-card.json', target.endsWith('/') ? target : `${target}/`).href;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let ended = false;
  void exited(child).then(() => (ended = true));
  while (!(await answers(card))) {
    if (ended) throw new UserError(`${label} command exited before ${card} answered: ${tail(log)}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new UserError(`${label} command did not serve ${card} within ${READY_TIMEOUT_MS / 1000} s: ${tail(log)}`);
    }
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
  return { stop: () => stopChild(child) };
}
