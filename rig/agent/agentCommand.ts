// `a2a-rig agent`: runs the reference agent until SIGTERM/SIGINT. Once listening it prints one JSON
// line on stdout ({"url","grpc"?,"pid","db"}) so tools can find it; everything else goes to stderr.
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { FAULTS, isFaultName, unknownFaultMessage, type FaultName } from './faults.ts';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './httpGuards.ts';
import { DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from './connectionLimits.ts';
import { tckStreamingTimeoutMs } from './script.ts';
import { startAgent, type RunningAgent } from './startAgent.ts';

function parsePort(value: string, option = '--port'): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UserError(`${option} must be an integer in 0..65535 (0 picks a free port), got "${value}"`);
  return port;
}

function parseTimeout(flag: string) {
  return (value: string): number => {
    const ms = Number(value);
    if (!/^\d+$/.test(value) || ms < 100 || ms > 3_600_000)
      throw new UserError(`${flag} must be an integer number of milliseconds in 100..3600000, got "${value}"`);
    return ms;
  };
}

function parseCount(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > 1_000_000)
      throw new UserError(`${flag} must be an integer in 1..1000000, got "${value}"`);
    return n;
  };
}

function parseRate(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 1_000_000)
    throw new UserError(`--rate-limit must be a number of requests per second in (0, 1000000], got "${value}"`);
  return n;
}

function collectFault(value: string, previous: FaultName[]): FaultName[] {
  if (!isFaultName(value)) {
    throw new UserError(unknownFaultMessage('--fault', value));
  }
  return [...previous, value];
}

interface AgentCommandOptions {
  host: string;
  port: number;
  db?: string;
  fault: FaultName[];
  exitWithStdin?: boolean;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  cardDefault: '1.0' | '0.3';
  maxConnections: number;
  maxConnectionsPerClient: number;
  rateLimit?: number;
  rateLimitBurst?: number;
  grpcPort?: number;
}

/** Where it listens: the HTTP address and port, and the gRPC port when it serves one. */
function withListenOptions(command: Command): Command {
  return command
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(
      new Option('--port <port>', 'port to listen on (0 picks a free one)')
        .default(0)
        .argParser((value) => parsePort(value)),
    )
    .addOption(
      new Option(
        '--grpc-port <port>',
        'also serve the A2A 1.0 gRPC binding on this port (0 picks a free one)',
      ).argParser((value) => parsePort(value, '--grpc-port')),
    );
}

/** The DoS bounds (timeouts, connections, rate limit) and the card a version-less client gets. */
function withBoundOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--headers-timeout-ms <ms>',
        'time a client gets to send its request headers; 408 and close after (Slowloris bound)',
      )
        .default(DEFAULT_HEADERS_TIMEOUT_MS)
        .argParser(parseTimeout('--headers-timeout-ms')),
    )
    .addOption(
      new Option(
        '--request-timeout-ms <ms>',
        'time a client gets to send its whole request, body included (responses and streams are not cut)',
      )
        .default(DEFAULT_REQUEST_TIMEOUT_MS)
        .argParser(parseTimeout('--request-timeout-ms')),
    )
    .addOption(
      new Option(
        '--card-default <version>',
        'the card a request without A2A-Version gets at /.well-known/agent-card.json ' +
          '(0.3 for old clients that send no header)',
      )
        .choices(['1.0', '0.3'])
        .default('1.0'),
    )
    .addOption(
      new Option(
        '--max-connections <n>',
        'open connections in total; a socket beyond it is closed on accept (a2a_agent_connections_shed_total)',
      )
        .default(DEFAULT_MAX_CONNECTIONS)
        .argParser(parseCount('--max-connections')),
    )
    .addOption(
      new Option(
        '--max-connections-per-client <n>',
        'open connections from one client IP; a socket beyond it is closed on accept',
      )
        .default(DEFAULT_MAX_CONNECTIONS_PER_CLIENT)
        .argParser(parseCount('--max-connections-per-client')),
    )
    .addOption(
      new Option(
        '--rate-limit <requests-per-second>',
        'per-client-IP rate limit (off by default): 429 with Retry-After beyond it; the card and /metrics are exempt',
      ).argParser(parseRate),
    )
    .addOption(
      new Option(
        '--rate-limit-burst <n>',
        'requests one client IP may make at once (default: the rate rounded up)',
      ).argParser(parseCount('--rate-limit-burst')),
    );
}

/** The outbox file, how the agent's life is tied to its parent's, and the faults to break it with. */
function withRunOptions(command: Command): Command {
  return command
    .option(
      '--db <path>',
      'SQLite file of the outbox, kept (default: a new one under the OS temp dir, removed at stop)',
    )
    .addOption(
      new Option(
        '--exit-with-stdin',
        'stop when standard input closes (a parent that pipes it can die without leaving the agent behind)',
      ).hideHelp(),
    )
    .addOption(
      new Option('--fault <name>', `break one guarantee on purpose (repeatable): ${Object.keys(FAULTS).join(', ')}`)
        .argParser(collectFault)
        .default([]),
    );
}

/** What no single option's parser can check: the options against each other, and the environment. */
function checkOptions(opts: AgentCommandOptions): void {
  if (opts.headersTimeoutMs > opts.requestTimeoutMs) {
    throw new UserError(
      `--headers-timeout-ms (${opts.headersTimeoutMs}) cannot exceed ` +
        `--request-timeout-ms (${opts.requestTimeoutMs}): the headers are part of the request`,
    );
  }
  if (opts.rateLimitBurst !== undefined && opts.rateLimit === undefined)
    throw new UserError('--rate-limit-burst needs --rate-limit');
  tckStreamingTimeoutMs(); // a bad TCK_STREAMING_TIMEOUT is refused at start, not on the TCK's message
}

/** The outbox's path and how to remove it at stop. */
interface OutboxFile {
  dbPath: string;
  removeScratch: () => void;
}

/**
 * Without --db the outbox is scratch: a directory of its own (the database, -wal and -shm),
 * removed at stop, so agents started by tests and A/B commands leave nothing in /tmp.
 */
function outboxFile(db: string | undefined): OutboxFile {
  const scratch = db === undefined ? mkdtempSync(join(tmpdir(), 'a2a-rig-agent-')) : undefined;
  const removeScratch = () => scratch && rmSync(scratch, { recursive: true, force: true });
  const dbPath = db ?? join(scratch!, 'outbox.db');
  const dir = dirname(dbPath);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`--db: directory ${dir} does not exist`);
  return { dbPath, removeScratch };
}

const LISTEN_FAILURES = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);
const OUTBOX_FAILURES = new Set(['SQLITE_CANTOPEN', 'SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** Starts the agent; a port or outbox it cannot have is the user's to fix, said in one line. */
async function startOrExplain(opts: AgentCommandOptions, outbox: OutboxFile): Promise<RunningAgent> {
  const { dbPath } = outbox;
  try {
    return await startAgent({
      host: opts.host,
      port: opts.port,
      dbPath,
      faults: opts.fault,
      headersTimeoutMs: opts.headersTimeoutMs,
      requestTimeoutMs: opts.requestTimeoutMs,
      cardDefault: opts.cardDefault,
      grpcPort: opts.grpcPort,
      maxConnections: opts.maxConnections,
      maxConnectionsPerClient: opts.maxConnectionsPerClient,
      ...(opts.rateLimit !== undefined
        ? { rateLimit: { requestsPerSecond: opts.rateLimit, burst: opts.rateLimitBurst } }
        : {}),
    });
  } catch (err) {
    outbox.removeScratch();
    const e = err as NodeJS.ErrnoException;
    if (LISTEN_FAILURES.has(e.code!)) {
      throw new UserError(`cannot listen on ${opts.host}:${opts.port} (${e.code}); pick another --host/--port`);
    }
    if (OUTBOX_FAILURES.has(e.code!)) {
      throw new UserError(`--db ${dbPath} cannot be used as the outbox (${e.code})`);
    }
    throw err;
  }
}

/** The lines that say where the agent is: notes on stderr, the one JSON line on stdout. */
function announce(agent: RunningAgent, opts: AgentCommandOptions, dbPath: string): void {
  process.stderr.write(`a2a-rig agent: outbox database ${dbPath}\n`);
  if (opts.fault.length > 0) process.stderr.write(`a2a-rig agent: FAULTS ACTIVE: ${opts.fault.join(', ')}\n`);
  const grpc = agent.grpcUrl === undefined ? {} : { grpc: agent.grpcUrl };
  process.stdout.write(`${JSON.stringify({ url: agent.url, ...grpc, pid: process.pid, db: dbPath })}\n`);
}

/** Stops on SIGTERM/SIGINT (and on stdin's close when asked): sockets, files, scratch, then exit 0. */
function stopOnSignals(agent: RunningAgent, outbox: OutboxFile, exitWithStdin: boolean | undefined): void {
  const stop = async () => {
    await agent.close();
    outbox.removeScratch();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (exitWithStdin) {
    // The rig's embedded agent: the pipe closes when the rig is gone, even after a kill -9 of the rig.
    process.stdin.once('close', stop).resume();
  }
}

export function registerAgentCommand(program: Command): void {
  const command = program
    .command('agent')
    .description(
      'run the reference A2A agent (hitl-prompt/v1, acceptance criteria, durable outbox, replay plane at /events)',
    )
    .addHelpText(
      'after',
      '\nEnvironment:\n' +
        '  TCK_STREAMING_TIMEOUT  seconds (default 2, as in the A2A TCK); a task whose messageId starts with\n' +
        '                         test-resubscribe-message-id works for twice this long before it completes\n',
    );
  withRunOptions(withBoundOptions(withListenOptions(command))).action(async (opts: AgentCommandOptions) => {
    checkOptions(opts);
    const outbox = outboxFile(opts.db);
    const agent = await startOrExplain(opts, outbox);
    announce(agent, opts, outbox.dbPath);
    stopOnSignals(agent, outbox, opts.exitWithStdin);
  });
}
