// The independent hitl-prompt/v1 peers of test/peers/python, each run by the Python of a virtual
// environment that holds one official a2a-sdk release (.ci/run prepares them under .tools/py/).
// A peer runs as a process the rig did not start: launched by a shell script, its pid in a pidfile,
// so that the rig's --restart-cmd can kill -9 it and start it again on the same port and database.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, processAlive } from './localHost.ts';

export type PeerSdk = '1.3.0' | '0.3.26';

const repoRoot = new URL('../../', import.meta.url).pathname;
const AGENT = join(repoRoot, 'test/peers/python/agent.py');

/** Where the venvs live: A2A_RIG_PY_VENVS (a directory holding a2a-sdk-<ver>/), else <repo>/.tools/py. */
export function peerPython(sdk: PeerSdk): string {
  const base = process.env.A2A_RIG_PY_VENVS ?? join(repoRoot, '.tools/py');
  return join(base, `a2a-sdk-${sdk}`, 'bin', 'python');
}

/**
 * Why a peer cannot run here, or undefined when it can. Under CI a missing venv is an error, not a
 * skip: .ci/run prepares both, and a peer that silently did not run must not look green.
 */
export function pythonPeerMissing(sdk: PeerSdk): string | undefined {
  const python = peerPython(sdk);
  if (existsSync(python)) return undefined;
  const reason = `no Python venv with a2a-sdk ${sdk} at ${python} (.ci/run prepares it; or set A2A_RIG_PY_VENVS)`;
  const ci = process.env.CI;
  if (ci !== undefined && !['', 'false', '0'].includes(ci.toLowerCase())) throw new Error(`CI is set and ${reason}`);
  console.warn(`skipping the a2a-sdk ${sdk} peer: ${reason}`);
  return reason;
}

export interface PythonPeer {
  /** Base URL, e.g. http://127.0.0.1:41234/ (with binding 'grpc': where the card is served) */
  url: string;
  /** With binding 'grpc': the gRPC endpoint, `host:port` (as the card names it). */
  grpc?: string;
  /** For the rig's --restart-cmd: kill -9 the current process, start a new one on the same port and db. */
  restartCmd: string;
  /** Pid of the process serving now (changes with every restart). */
  pid(): number;
  /** Kills whatever process is current and removes the temp directory (db, pidfile, logs). */
  close(): Promise<void>;
}

export interface PeerOptions {
  sdk: PeerSdk;
  /**
   * `--fault` flags (test/peers/python: hitl_core.FAULTS, acceptance_core.FAULTS, and the DoS guards'
   * dos_guards.FAULTS: no-body-limit, parse-errors-500, no-depth-limit, no-request-timeouts,
   * no-header-limit, no-connection-limit, each removing one guard; and the stream shapes of
   * stream_shapes.SHAPE_FAULTS: task-snapshots, headers-with-first-event, no-replay).
   */
  faults?: string[];
  /** Environment of the peer process (e.g. A2A_PEER_HEADERS_TIMEOUT_S / A2A_PEER_REQUEST_TIMEOUT_S, dos_guards.py). */
  env?: Record<string, string>;
  /**
   * 'grpc' (a2a-sdk 1.3.0 only): A2A over gRPC only, the SDK's own gRPC server (sdk_v1_grpc.py),
   * on a port of its own that restarts keep; HTTP serves only the card. 'http+json' (1.3.0 only): the
   * SDK's A2A 1.0 REST routes only. Either without acceptance-criteria. Default 'jsonrpc'.
   */
  binding?: 'jsonrpc' | 'http+json' | 'grpc';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startPythonPeer(opts: PeerOptions): Promise<PythonPeer> {
  const python = peerPython(opts.sdk);
  if (!existsSync(python)) throw new Error(`no Python venv with a2a-sdk ${opts.sdk} at ${python}`);
  const dir = mkdtempSync(join(tmpdir(), `a2a-rig-peer-${opts.sdk}-`));
  const port = await freePort();
  const pidFile = join(dir, 'agent.pid');
  const log = join(dir, 'agent.log');
  const faultArgs = (opts.faults ?? []).map((f) => ` --fault ${f}`).join('');
  const bindingArgs =
    opts.binding === 'grpc'
      ? ` --binding grpc --grpc-port ${await freePort()}`
      : opts.binding === 'http+json'
        ? ' --binding http+json'
        : '';
  const start = join(dir, 'start.sh');
  const restart = join(dir, 'restart.sh');
  const envVars = Object.entries(opts.env ?? {})
    .map(([k, v]) => ` ${k}=${JSON.stringify(v)}`)
    .join('');
  const peer = `"${python}" "${AGENT}" --port ${port} --db "${join(dir, 'peer.db')}"${faultArgs}${bindingArgs}`;
  // The peer outlives the script (background, stdio to a file): the pidfile is how it is owned.
  writeFileSync(
    start,
    `#!/bin/sh
PYTHONDONTWRITEBYTECODE=1${envVars} nohup ${peer} >> "${log}" 2>&1 < /dev/null &
echo $! > "${pidFile}"
`,
  );
  // kill -9, wait (bounded) until the old process is gone so the port is free, start again. The rig
  // waits for the card itself.
  writeFileSync(
    restart,
    `#!/bin/sh
pid=$(cat "${pidFile}")
kill -9 "$pid" 2>/dev/null
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
exec sh "${start}"
`,
  );
  const pid = () => Number(readFileSync(pidFile, 'utf8').trim());
  const close = async () => {
    try {
      const current = existsSync(pidFile) ? pid() : 0;
      // Only a process that is still our peer (pids are reused) is killed.
      if (current > 0 && processAlive(current) && isOurPeer(current, dir)) {
        process.kill(current, 'SIGKILL');
        for (let i = 0; i < 100 && processAlive(current); i++) await sleep(50);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    await promisify(execFile)('sh', [start], { timeout: 10_000 });
    const { url, grpc } = await waitForListening(log, pid, 30_000);
    return { url, ...(grpc ? { grpc } : {}), restartCmd: `sh "${restart}"`, pid, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function isOurPeer(pid: number, dir: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
  } catch {
    return true; // no /proc: trust the pidfile
  }
}

/** Polls (bounded) the log for the peer's one JSON line {"url","grpc"?,"pid"}. */
async function waitForListening(
  log: string,
  pid: () => number,
  timeoutMs: number,
): Promise<{ url: string; grpc?: string }> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    const line = text.split('\n').find((l) => l.startsWith('{"url"'));
    if (line) return JSON.parse(line) as { url: string; grpc?: string };
    if (!processAlive(pid())) throw new Error(`the Python peer exited before listening: ${text.slice(-2000)}`);
    await sleep(50);
  }
  throw new Error(`the Python peer did not listen within ${timeoutMs} ms: ${readFileSync(log, 'utf8').slice(-2000)}`);
}
