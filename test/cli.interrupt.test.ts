// SIGINT and SIGTERM during a run, through the real CLI against the embedded agent: the run stops
// without waiting for its scenario, writes the results so far (verdict `interrupted`: the running scenario
// interrupted, the rest not run) in all four files, says so in one line, exits 130/143, and leaves
// nothing behind: no agent process, no temp outbox directory, no proxy on the Toxiproxy it used.
// On a terminal (a pty through script(1)), Ctrl-C also gives the cursor back that the progress
// bar hid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnToxiproxyServer } from '../rig/proxy/toxiproxyServerProcess.ts';
import { startEmbeddedToxiproxy } from '../rig/proxy/embedded/embeddedToxiproxy.ts';
import { freePort } from './support/localHost.ts';
import { callApi, realToxiproxyBinary, repoRoot, type ToxiproxyUnderTest } from './support/proxyBackends.ts';
import { readRunFiles } from './support/rigCli.ts';

const CLI = join(repoRoot, 'bin/a2a-rig.js');
// capacity steps its rate for about 8 s at smoke: long enough to be signalled mid-run.
const ARGS = ['run', 'capacity', 'cf1', '--profile', 'smoke'];
const STARTED = /\[1\/2\] capacity …/;

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-interrupt-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every process below `pid` (children, their children, ...), read from /proc. */
function descendantsOf(pid: number): number[] {
  const below = childrenOf(pid);
  return [...below, ...below.flatMap(descendantsOf)];
}

/** Every process whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so count from its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/**
 * Whether `pid` still runs as the same process: not gone, not a zombie (a dead process whose
 * parent has not reaped it — a container's init may never), and not a new process under a reused pid.
 */
function stillRuns(pid: number, startTime: string | undefined): boolean {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
    return rest[0] !== 'Z' && rest[0] !== 'X' && rest[19] === startTime;
  } catch {
    return false;
  }
}

function startTimeOf(pid: number): string | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return fields.slice(fields.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

interface Signalled {
  code: number | null;
  stdout: string;
  stderr: string;
  /** ms from the signal to the process's exit. */
  stopMs: number;
  /** The CLI's descendants while the run ran (the embedded agent among them). */
  children: number[];
  /** Their command lines. */
  commands: string[];
  /** Their start times (to tell a reused pid). */
  startTimes: Array<string | undefined>;
  /** The embedded agent's temp outbox directory. */
  agentDir: string | undefined;
}

/** Starts the CLI, waits for the progress line of the long scenario, sends `signal`, waits for the exit. */
async function signalledRun(args: string[], signal: NodeJS.Signals, env: NodeJS.ProcessEnv = {}): Promise<Signalled> {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const closed = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('close', (code) => resolve({ code, at: performance.now() })),
  );
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        stderr += d;
        if (STARTED.test(stderr)) resolve();
      });
      child.once('exit', () => reject(new Error(`the run ended before it started: ${stderr}`)));
    });
    const children = descendantsOf(child.pid!);
    const commands = children.map((pid) => cmdline(pid).join(' '));
    const startTimes = children.map(startTimeOf);
    const agent = children.map(cmdline).find((argv) => argv.includes('agent') && argv.includes('--db'));
    const agentDir = agent ? dirname(agent[agent.indexOf('--db') + 1]!) : undefined;
    const sent = performance.now();
    child.kill(signal);
    const { code, at } = await closed;
    return { code, stdout, stderr, stopMs: at - sent, children, commands, startTimes, agentDir };
  } finally {
    clearTimeout(guard);
    child.kill('SIGKILL');
  }
}

function expectInterrupted(run: Signalled, dir: string, signal: 'SIGINT' | 'SIGTERM'): void {
  expect(run.code, run.stderr).toBe(signal === 'SIGINT' ? 130 : 143);
  // How fast is the box's, not asserted: the exit code says the signal ended the run, the verdicts
  // below that it did not wait for the scenario, and a run that hung would meet the 60 s guard's
  // SIGKILL (no exit code).
  console.log(`${signal}: ${Math.round(run.stopMs)} ms from signal to exit`);
  expect(
    run.stderr.split('\n').filter((l) => /interrupted by/i.test(l) && l.startsWith('a2a-rig:')),
    run.stderr,
  ).toEqual([`a2a-rig: interrupted by ${signal}; results so far in ${dir}`]);
  expect(run.stderr).not.toMatch(/^\s+at /m);

  for (const file of ['results.json', 'junit.xml', 'summary.md', 'report.html'])
    expect(existsSync(join(dir, file)), file).toBe(true);
  const { results, junit, summary } = readRunFiles(dir);
  expect(results.verdict).toBe('interrupted');
  expect(results.interruptedBy).toBe(signal);
  expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([
    ['capacity', 'interrupted'],
    ['cf1', 'not-run'],
  ]);
  expect(results.scenarios[0]!.reason).toBe(`interrupted by ${signal}`);
  expect(junit.find((c) => c.name === 'capacity')?.error).toBe(`interrupted by ${signal}`);
  expect(junit.find((c) => c.name === 'cf1')?.skipped).toContain('not run');
  expect(summary).toMatch(/^# a2a-rig INTERRUPTED/);
  expect(summary).toContain(`**Interrupted by ${signal}**`);
  expect(summary).toMatch(/\| cf1 \| NOT RUN \|/);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  expect(html).toContain('<span class="badge interrupted">INTERRUPTED</span>');
  expect(html).toContain('<span class="badge not-run">NOT RUN</span>');

  // Nothing left behind: the agent (and any other child) is gone, and so is its temp database.
  expect(run.children.length, 'the embedded agent ran as a child').toBeGreaterThan(0);
  const alive = run.children.flatMap((pid, i) =>
    stillRuns(pid, run.startTimes[i]) ? [`${pid} ${run.commands[i]}`] : [],
  );
  expect(alive, 'children still running').toEqual([]);
  expect(run.agentDir, "found the agent's --db").toBeDefined();
  expect(existsSync(run.agentDir!), `${run.agentDir} removed`).toBe(false);
}

describe('a signal stops the run, keeps what it measured and leaves nothing behind', () => {
  let toxiproxy: ToxiproxyUnderTest;
  beforeAll(async () => {
    const real = realToxiproxyBinary();
    toxiproxy = real.path ? await spawnToxiproxyServer(real.path) : await startEmbeddedToxiproxy();
  });
  afterAll(async () => {
    await toxiproxy?.close();
  });

  it(
    'SIGINT, on a Toxiproxy the test started: exit 130, results so far, no proxy left on it',
    { timeout: 90_000 },
    async () => {
      expect((await callApi(toxiproxy.url, 'GET', '/proxies')).json).toEqual({});
      const dir = join(out, 'sigint');
      const run = await signalledRun([...ARGS, '--toxiproxy', toxiproxy.url, '--out', dir], 'SIGINT');
      expectInterrupted(run, dir, 'SIGINT');
      expect((await callApi(toxiproxy.url, 'GET', '/proxies')).json, "this run's proxy deleted").toEqual({});
    },
  );

  it.skipIf(!realToxiproxyBinary().path)(
    'SIGINT with a toxiproxy-server the rig spawned: that server is stopped too',
    { timeout: 90_000 },
    async () => {
      const dir = join(out, 'spawned');
      // auto: no server at TOXIPROXY_URL (a free port), so the rig spawns TOXIPROXY_SERVER itself.
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      const run = await signalledRun([...ARGS, '--toxiproxy', 'auto', '--out', dir], 'SIGINT', {
        TOXIPROXY_URL: nowhere,
        TOXIPROXY_SERVER: realToxiproxyBinary().path!,
      });
      expect(readRunFiles(dir).results.proxy?.backend, run.stderr).toBe('spawned');
      expect(
        run.commands.some((c) => c.includes(realToxiproxyBinary().path!)),
        run.commands.join('\n'),
      ).toBe(true);
      expectInterrupted(run, dir, 'SIGINT');
    },
  );

  it('SIGTERM, with the embedded proxy: exit 143, the same', { timeout: 90_000 }, async () => {
    const dir = join(out, 'sigterm');
    const run = await signalledRun([...ARGS, '--toxiproxy', 'embedded', '--out', dir], 'SIGTERM');
    expectInterrupted(run, dir, 'SIGTERM');
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('Ctrl-C on a terminal', () => {
  it('gives the cursor back that the progress bar hid, and exits 130', { timeout: 90_000 }, async () => {
    const dir = join(out, 'tty');
    const command = [process.execPath, CLI, ...ARGS, '--toxiproxy', 'none', '--out', dir]
      .map((a) => `'${a}'`)
      .join(' ');
    // script(1) runs the CLI on a pty; a ^C written to it is the terminal's Ctrl-C (SIGINT to the
    // foreground process group). -e: script exits with the CLI's code.
    const script = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, CI: '', TERM: 'xterm' },
    });
    const guard = setTimeout(() => script.kill('SIGKILL'), 60_000);
    let screen = '';
    let sent = false;
    const code = await new Promise<number | null>((resolve) => {
      script.stdout.on('data', (d) => {
        screen += d;
        // The bar names the running scenario once capacity has started.
        if (!sent && /\d\/2 \| capacity/.test(screen)) {
          sent = true;
          script.stdin.write('\x03');
        }
      });
      script.once('close', resolve);
    });
    clearTimeout(guard);
    expect(sent, screen).toBe(true);
    expect(code, screen).toBe(130);
    const hidden = screen.lastIndexOf('\x1b[?25l');
    expect(hidden, 'the bar hid the cursor').toBeGreaterThanOrEqual(0);
    expect(screen.indexOf('\x1b[?25h', hidden), 'the cursor is shown again after it was hidden').toBeGreaterThan(
      hidden,
    );
    expect(screen).toContain('a2a-rig: interrupted by SIGINT');
    expect(readRunFiles(dir).results.verdict).toBe('interrupted');
  });
});
