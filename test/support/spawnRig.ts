// The real command line with extra environment variables (a preload, CI=true), bounded in time.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { hermeticEnv, type CliRun } from './rigCli.ts';

const repoRoot = new URL('../../', import.meta.url).pathname;

export function runRigWithEnv(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin/a2a-rig.js'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...hermeticEnv(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`a2a-rig ${args.join(' ')} did not exit within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
