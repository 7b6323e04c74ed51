// The results directory (`--out`, default results/<run-id>), checked before anything runs: a run
// that cannot write its results must not start (a bad path used to lose the whole run, and a path
// in /proc hung it). The directory is created, or must be empty or an earlier run's results; a
// probe file proves it writable; kernel filesystems (/proc, /sys, /dev, cgroup, ...) are refused.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmdirSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { UserError } from '../protocol/userError.ts';
import { RESULT_FILES } from './writeResults.ts';

/** The error log of a run the rig itself broke (cli.ts). */
export const ERROR_LOG = 'error.log';

/** What a results directory may already hold: an earlier run's files, overwritten by this one. */
const OWN_FILES = new Set<string>([...RESULT_FILES, ERROR_LOG]);

/** statfs f_type of the filesystems that are not storage (linux/magic.h). */
const KERNEL_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x1cd1: 'devpts',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x73636673: 'securityfs',
  0xcafe4a11: 'bpf',
  0x6165676c: 'pstore',
  0x62656570: 'configfs',
};
const KERNEL_ROOTS = ['/proc', '/sys', '/dev'];

export interface OutDir {
  /** Absolute path. */
  readonly path: string;
  /** Removes the directories this check created if the run wrote nothing into them (a usage error). */
  discardIfEmpty(): void;
}

function nearestExisting(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

function kernelFilesystem(existing: string): string | undefined {
  const real = realpathSync(existing);
  const root = KERNEL_ROOTS.find((r) => real === r || real.startsWith(`${r}${sep}`));
  if (root) return root;
  try {
    return KERNEL_FS[statfsSync(real).type];
  } catch {
    return undefined;
  }
}

const why = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/** Checks (and creates) the results directory; a UserError (one line, exit 2) says what is wrong. */
export function prepareOutDir(dir: string): OutDir {
  const path = resolve(dir);
  const kernel = kernelFilesystem(nearestExisting(path));
  if (kernel)
    throw new UserError(`--out ${dir} is on ${kernel}, a kernel filesystem, not storage: give a directory on disk`);
  const created: string[] = [];
  if (existsSync(path)) {
    if (!statSync(path).isDirectory()) throw new UserError(`--out ${dir} exists and is not a directory`);
    const foreign = readdirSync(path).filter((name) => !OWN_FILES.has(name));
    if (foreign.length > 0) {
      const named = `${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}`;
      throw new UserError(
        `--out ${dir} holds files that are not a2a-rig results (${named}): give a new or empty directory`,
      );
    }
  } else {
    for (let p = path; !existsSync(p); p = dirname(p)) created.unshift(p);
    try {
      // One level at a time, so exactly these are ours to remove again.
      for (const p of created) mkdirSync(p);
    } catch (err) {
      removeEmpty(created);
      throw new UserError(`--out ${dir} cannot be created: ${why(err)}`);
    }
  }
  const probe = join(path, `.a2a-rig-probe-${process.pid}`);
  try {
    writeFileSync(probe, 'a2a-rig checks that it can write its results here\n');
    unlinkSync(probe);
  } catch (err) {
    removeEmpty(created);
    throw new UserError(`--out ${dir} is not writable: ${why(err)}`);
  }
  return { path, discardIfEmpty: () => removeEmpty(created) };
}

/** Removes the directories we created, deepest first, as long as they are empty. */
function removeEmpty(created: string[]): void {
  for (const p of [...created].reverse()) {
    try {
      rmdirSync(p);
    } catch {
      return;
    }
  }
}
