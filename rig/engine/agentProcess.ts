// The embedded environment's agent: our reference agent as an owned child process on a temp
// database. kill -9 and restart keep the port (so a proxy in front stays valid) and the database
// (so the outbox is what is tested). Every child is reaped and its temp database removed, also
// when the rig itself exits (process.exit: a forced interrupt). The child runs in its own process
// group, so a Ctrl-C on the terminal reaches the rig only and the rig stops the agent in order
// (after the interrupted scenario is recorded), not the terminal behind its back.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { UserError } from '../protocol/userError.ts';

const CLI = fileURLToPath(new URL('../../bin/a2a-rig.js', import.meta.url));
const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 1_000;
const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

export class AgentProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'a2a-rig-agent-'));
  readonly dbPath = join(this.dir, 'outbox.db');
  private port = 0;
  url = '';
  stderrTail = '';

  constructor(
    private readonly faults: string[],
    private readonly extraArgs: readonly string[] = [],
  ) {
    tempDirs.add(this.dir);
  }

  async start(): Promise<string> {
    // --exit-with-stdin: should the rig itself be killed (-9, no exit handler), the agent sees its
    // stdin pipe close and stops instead of living on as an orphan.
    const args = [CLI, 'agent', '--host', '127.0.0.1', '--port', String(this.port), '--db', this.dbPath, '--exit-with-stdin'];
    for (const fault of this.faults) args.push('--fault', fault);
    args.push(...this.extraArgs);
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    live.add(child);
    child.once('exit', () => live.delete(child));
    child.stderr!.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-4000)));
    this.child = child;
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the agent did not start within ${START_TIMEOUT_MS} ms: ${this.stderrTail}`)), START_TIMEOUT_MS);
      createInterface({ input: child.stdout! }).once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
      // 'close', not 'exit': by then its stderr has been read to the end.
      child.once('close', (code) => {
        clearTimeout(timer);
        // Exit code 2 is the agent refusing its arguments (an unknown --agent-fault): the user's to fix.
        const said = this.stderrTail.trim().split('\n').at(-1)?.replace(/^a2a-rig: /, '');
        if (code === 2 && said) reject(new UserError(`the embedded agent refused to start: ${said}`));
        else reject(new Error(`the agent exited (${code}) before listening: ${this.stderrTail}`));
      });
    });
    const { url } = JSON.parse(line) as { url: string };
    this.url = url;
    this.port = Number(new URL(url).port);
    return url;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** kill -9, and wait until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** kill -9 then start again on the same port and database. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // Short: its database is a temp file removed next, so nothing is lost by a SIGKILL, and an
      // interrupted run must exit within 2 s.
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
    tempDirs.delete(this.dir);
  }
}
