// The embedded environment's agent: our reference agent as an owned child process on a temp
// database. kill -9 and restart keep the port (so a proxy in front stays valid) and the database
// (so the outbox is what is tested). Every child is reaped and its temp database removed, also
// when the rig itself exits (process.exit: a forced interrupt). The child runs in its own process
// group, so a Ctrl-C on the terminal reaches the rig only and the rig stops the agent in order
// (after the interrupted scenario is recorded), not the terminal behind its back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../protocol/userError.ts';
import { ChildStartError, startJsonLineChild, type JsonLineChild } from './jsonLineChild.ts';
import { RIG_CLI } from '../rigPaths.ts';

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 1_000;
// Children are killed on exit by jsonLineChild.ts; their temp databases are removed here.
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

export class AgentProcess {
  private current: JsonLineChild<{ url: string; grpc?: string }> | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'a2a-rig-agent-'));
  readonly dbPath = join(this.dir, 'outbox.db');
  private port = 0;
  /** The gRPC binding's port, kept across restarts like the HTTP one (the card names both). */
  private grpcPort = 0;
  url = '';

  constructor(
    private readonly faults: readonly string[],
    private readonly extraArgs: readonly string[] = [],
  ) {
    tempDirs.add(this.dir);
  }

  async start(): Promise<string> {
    // --exit-with-stdin: should the rig itself be killed (-9, no exit handler), the agent sees its
    // stdin pipe close and stops instead of living on as an orphan.
    const args = [
      RIG_CLI,
      'agent',
      '--host',
      '127.0.0.1',
      '--port',
      String(this.port),
      '--db',
      this.dbPath,
      '--exit-with-stdin',
      '--grpc-port',
      String(this.grpcPort),
    ];
    for (const fault of this.faults) args.push('--fault', fault);
    args.push(...this.extraArgs);
    try {
      this.current = await startJsonLineChild<{ url: string; grpc?: string }>(process.execPath, args, {
        name: 'the agent',
        timeoutMs: START_TIMEOUT_MS,
        stdin: 'pipe',
        detached: true,
        stderrTailChars: 4000,
      });
    } catch (err) {
      // Exit code 2 is the agent refusing its arguments (an unknown --agent-fault): the user's to fix.
      const said =
        err instanceof ChildStartError && err.exitCode === 2
          ? err.stderr
              .trim()
              .split('\n')
              .at(-1)
              ?.replace(/^a2a-rig: /, '')
          : undefined;
      if (said) throw new UserError(`the embedded agent refused to start: ${said}`);
      throw err;
    }
    const { url, grpc } = this.current.info;
    this.url = url;
    this.port = Number(new URL(url).port);
    if (grpc) this.grpcPort = Number(grpc.slice(grpc.lastIndexOf(':') + 1));
    return url;
  }

  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  /** kill -9, and wait until the process is gone. */
  async kill(): Promise<void> {
    await this.current?.kill();
  }

  /** kill -9 then start again on the same port and database. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  async stop(): Promise<void> {
    // Short: its database is a temp file removed next, so nothing is lost by a SIGKILL, and an
    // interrupted run must exit within 2 s.
    await this.current?.stop(STOP_GRACE_MS);
    rmSync(this.dir, { recursive: true, force: true });
    tempDirs.delete(this.dir);
  }
}
