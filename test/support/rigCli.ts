// Runs the real command line (`node bin/a2a-rig.js ...`) as a child process, bounded in time and
// always reaped, and reads what a run leaves in its --out directory.
import { spawn } from 'node:child_process';
import { startJsonLineChild } from '../../rig/engine/environment/jsonLineChild.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import type { RunResult } from '../../rig/results/runResult.ts';

const repoRoot = new URL('../../', import.meta.url).pathname;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The test's environment without TOXIPROXY_URL: a developer's shared Toxiproxy must not become the
 * fault backend of a test that leaves --toxiproxy at auto (auto then spawns TOXIPROXY_SERVER or
 * falls back to the embedded proxy).
 */
export function hermeticEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.TOXIPROXY_URL;
  return env;
}

/** Runs `a2a-rig ...args` (with `env` added to the hermetic environment); kills it (and fails) past `timeoutMs`. */
export function runRig(args: string[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin/a2a-rig.js'), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...hermeticEnv(), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`a2a-rig ${args.join(' ')} did not exit within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`),
      );
    }, timeoutMs);
    // 'close': the process has exited and its output has been read to the end.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface RigDaemon<T> {
  /** The JSON line it printed once listening. */
  info: T;
  /** SIGTERM, SIGKILL if it has not exited within 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts a long-running verb (`agent`, `proxy`) and waits (bounded) for its JSON line on stdout. */
export async function startRigDaemon<T>(
  args: string[],
  timeoutMs = 15_000,
  env: NodeJS.ProcessEnv = {},
): Promise<RigDaemon<T>> {
  const daemon = await startJsonLineChild<T>(process.execPath, [join(repoRoot, 'bin/a2a-rig.js'), ...args], {
    name: `a2a-rig ${args.join(' ')}`,
    timeoutMs,
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  return { info: daemon.info, stop: () => daemon.stop(5_000) };
}

export interface JunitCase {
  name: string;
  skipped?: string;
  failure?: string;
  error?: string;
}

/** Parses junit.xml with a strict XML parser (throws on anything not well-formed) into its testcases. */
export function parseJunit(xml: string): JunitCase[] {
  const cases: JunitCase[] = [];
  const parser = new SaxesParser();
  parser.on('error', (err) => {
    throw err;
  });
  parser.on('opentag', (tag) => {
    const attr = (name: string) => String(tag.attributes[name] ?? '');
    if (tag.name === 'testcase') cases.push({ name: attr('name') });
    const current = cases.at(-1);
    if (!current) return;
    if (tag.name === 'skipped') current.skipped = attr('message');
    if (tag.name === 'failure') current.failure = attr('message');
    if (tag.name === 'error') current.error = attr('message');
  });
  parser.write(xml).close();
  return cases;
}

export interface RunFiles {
  results: RunResult;
  junit: JunitCase[];
  summary: string;
}

/** Reads results.json, junit.xml and summary.md from a run's --out directory. */
export function readRunFiles(dir: string): RunFiles {
  for (const file of ['results.json', 'junit.xml', 'summary.md']) {
    if (!existsSync(join(dir, file))) throw new Error(`${file} was not written to ${dir}`);
  }
  return {
    results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResult,
    junit: parseJunit(readFileSync(join(dir, 'junit.xml'), 'utf8')),
    summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
  };
}

/**
 * Runs the rig with `--out dir` appended and reads the results it wrote; when it wrote none, the
 * error carries its exit code and the end of its stderr.
 */
export async function runRigForResults(args: string[], dir: string, timeoutMs: number) {
  const run = await runRig([...args, '--out', dir], timeoutMs);
  try {
    return { run, results: readRunFiles(dir).results };
  } catch (err) {
    throw new Error(
      `a2a-rig left no results (exit ${run.code}): ${(err as Error).message}\n${run.stderr.slice(-1500)}`,
      { cause: err },
    );
  }
}
