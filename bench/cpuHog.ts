// The CPU hog of issue 23's benchmarks: `stress-ng --cpu 1` (Debian's stress-ng), started before the
// work and killed by PID after it, whatever the work did — the neighbour a shared CI runner has.
import { spawn, spawnSync } from 'node:child_process';

export const HOG = 'stress-ng --cpu 1';

/** `work()` beside the hog; `missing` when stress-ng is not installed (nothing ran then). */
export function withHog<T>(work: () => T): { value: T } | { missing: string } {
  if (spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).error)
    return { missing: 'stress-ng is not installed (apt-get install stress-ng)' };
  const hog = spawn('stress-ng', ['--cpu', '1', '--timeout', '3600s'], { stdio: 'ignore' });
  try {
    return { value: work() };
  } finally {
    hog.kill('SIGKILL');
  }
}
