// A forced exit (a second Ctrl-C, or an interrupt's wind-down overrunning its bound) leaves by
// process.exit without stopping the environment: the embedded agent must still be killed and its
// temp database directory removed, by the exit handler of rig/engine/environment/agentProcess.ts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/proxyBackends.ts';

/** Running, not a zombie (a dead child its exited parent left unreaped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return false;
  }
}

describe('process.exit with the embedded agent running', () => {
  it('kills the agent and removes its temp database', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/exitWithAgent.ts'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(guard);
    expect(code, stderr).toBe(130);
    const { pid, db } = JSON.parse(stdout.trim()) as { pid: number; db: string };
    // SIGKILL is sent as the parent exits; the kernel may take a moment to schedule the death.
    const deadline = performance.now() + 2_000;
    while (running(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(running(pid), `agent ${pid} still running`).toBe(false);
    expect(existsSync(dirname(db)), `${dirname(db)} removed`).toBe(false);
  });

  it('the agent stops by itself when the rig is killed -9 (its stdin pipe closes)', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/exitWithAgent.ts', 'hold'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString()));
      child.once('close', () => reject(new Error(`the holder exited before starting the agent: ${stderr}`)));
    });
    const { pid, db } = JSON.parse(line.trim()) as { pid: number; db: string };
    expect(running(pid)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    clearTimeout(guard);
    const deadline = performance.now() + 10_000;
    while (running(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const orphan = running(pid);
    if (orphan) process.kill(pid, 'SIGKILL');
    rmSync(dirname(db), { recursive: true, force: true });
    expect(orphan, `agent ${pid} outlived the rig`).toBe(false);
  });
});
