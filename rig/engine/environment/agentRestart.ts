// Restarting the agent: running --restart-cmd for a --target, and waiting until a restarted agent
// answers again (its card); each bounded by RESTART_TIMEOUT_MS.
import { NO_CREDENTIALS, type Credentials } from '../../client/credentials.ts';
import { agentCardUrls, JsonRpcTransport } from '../../client/index.ts';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RESTART_TIMEOUT_MS = 30_000;

/**
 * Runs --restart-cmd and waits for it to exit. The command usually leaves the restarted agent
 * running in the background, holding whatever stdio it inherited: its stderr goes to a temp file,
 * not a pipe, so that agent can neither keep the rig alive after the run (an open pipe would) nor
 * die of EPIPE when it logs after the rig has gone.
 */
export function runRestartCommand(command: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-restart-'));
  const errPath = join(dir, 'stderr');
  const errFd = openSync(errPath, 'w');
  let tail: string | undefined;
  const finish = (): string => {
    if (tail === undefined) {
      tail = readFileSync(errPath, 'utf8').trim().slice(-2000);
      rmSync(dir, { recursive: true, force: true });
    }
    return tail;
  };
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'ignore', errFd] });
    closeSync(errFd);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`--restart-cmd did not finish within ${RESTART_TIMEOUT_MS} ms: ${finish()}`));
    }, RESTART_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const stderr = finish();
      if (code === 0) resolve();
      else reject(new Error(`--restart-cmd exited with ${code ?? signal}: ${stderr}`));
    });
  });
}

/**
 * Waits until the restarted agent serves its card again, where discovery looks for it (under the
 * target's path, then at its origin: agentCardUrls), with the user's headers and TLS trust.
 */
export async function waitForCard(directUrl: string, credentials: Credentials = NO_CREDENTIALS): Promise<void> {
  const deadline = performance.now() + RESTART_TIMEOUT_MS;
  const limits = { connectTimeoutMs: 2_000, headersTimeoutMs: 2_000, requestTimeoutMs: 2_000 };
  const transport = new JsonRpcTransport({ connections: 1, credentials, limits });
  let last = '';
  try {
    while (performance.now() < deadline) {
      for (const url of agentCardUrls(directUrl)) {
        try {
          const { status } = await transport.getJson(url);
          if (status === 200) return;
          last = `HTTP ${status}`;
        } catch (err) {
          last = (err as Error).message;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await transport.close();
  }
  const within = `within ${RESTART_TIMEOUT_MS} ms after the restart`;
  throw new Error(`the agent did not answer at ${directUrl} ${within} (${last})`);
}
