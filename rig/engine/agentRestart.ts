// Restarting the agent: running --restart-cmd for a --target, and waiting until a restarted agent
// answers again (its card); each bounded by RESTART_TIMEOUT_MS.
import { credentialHeaders, NO_CREDENTIALS, type Credentials } from '../client/credentials.ts';
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

/** `credentials`: the user's headers, so a card behind auth is seen answering (TLS trust: Node's defaults). */
export async function waitForCard(directUrl: string, credentials: Credentials = NO_CREDENTIALS): Promise<void> {
  const deadline = performance.now() + RESTART_TIMEOUT_MS;
  let last = '';
  while (performance.now() < deadline) {
    try {
      const res = await fetch(new URL('/.well-known/agent-card.json', directUrl), {
        signal: AbortSignal.timeout(2_000),
        headers: credentialHeaders(credentials),
      });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const within = `within ${RESTART_TIMEOUT_MS} ms after the restart`;
  throw new Error(`the agent did not answer at ${directUrl} ${within} (${last})`);
}
