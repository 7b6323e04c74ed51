// The build of dist/ (scripts/build.mjs) and the command line's use of it (bin/a2a-rig.js), on a
// scratch copy of the repository's layout (bin/, scripts/, a two-module rig/, a scenario): compiled
// modules import each other as .js; an edited source is compiled again before the next command runs
// (never an old build), a deleted one leaves dist/; a source that does not compile is one line
// naming file:line:col and nothing runs; an installed package without dist/ says to build it.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDist, rewriteSpecifiers } from '../scripts/build.mjs';

const repoRoot = new URL('../', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'a2a-rig-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package laid out as the repository is: bin/, scripts/, rig/cli.ts importing rig/version.ts. */
function checkout(name: string, version: string): string {
  const root = join(scratch, name);
  for (const dir of ['bin', 'scripts', 'rig', 'scenarios']) mkdirSync(join(root, dir), { recursive: true });
  copyFileSync(join(repoRoot, 'bin/a2a-rig.js'), join(root, 'bin/a2a-rig.js'));
  copyFileSync(join(repoRoot, 'scripts/build.mjs'), join(root, 'scripts/build.mjs'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(root, 'rig/version.ts'), `export const VERSION: string = '${version}';\n`);
  writeFileSync(
    join(root, 'rig/cli.ts'),
    "import { VERSION } from './version.ts';\n" +
      "const { shout } = await import('./shout.ts');\nconsole.log(shout(VERSION));\n",
  );
  writeFileSync(join(root, 'rig/shout.ts'), 'export const shout = (s: string): string => s.toUpperCase();\n');
  writeFileSync(join(root, 'scenarios/one.ts'), "export default { name: 'one' } as const;\n");
  return root;
}

const rig = (root: string) =>
  spawnSync(process.execPath, [join(root, 'bin/a2a-rig.js')], { encoding: 'utf8', timeout: 20_000 });

/** Moves a file's mtime `seconds` into the future: an edit the build must see, whatever the clock's grain. */
function touchLater(file: string, seconds = 5): void {
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(file, later, later);
}

describe('rewriteSpecifiers', () => {
  it('turns relative .ts specifiers into .js, and leaves everything else', () => {
    const code = [
      'import { a } from "./a.ts";',
      'export * from "../b/c.ts";',
      'import "./side.ts";',
      'const m = await import("./lazy.mts");',
      'import x from "pkg.ts";',
      "const u = new URL('./worker.ts', import.meta.url);",
      'const s = "see ./a.ts";',
    ].join('\n');
    expect(rewriteSpecifiers(code).split('\n')).toEqual([
      'import { a } from "./a.js";',
      'export * from "../b/c.js";',
      'import "./side.js";',
      'const m = await import("./lazy.mjs");',
      'import x from "pkg.ts";',
      "const u = new URL('./worker.ts', import.meta.url);",
      'const s = "see ./a.ts";',
    ]);
  });
});

describe('bin/a2a-rig.js in a checkout', () => {
  it('runs the compiled rig, and compiles an edited source again before it runs', async () => {
    const root = checkout('fresh', 'v1');
    const first = rig(root);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe('V1\n');
    expect(existsSync(join(root, 'dist/scenarios/one.js'))).toBe(true);
    // Built already: nothing to say, nothing compiled.
    const again = rig(root);
    expect([again.status, again.stdout, again.stderr]).toEqual([0, 'V1\n', '']);
    expect((await buildDist(root)).compiled).toBe(0);

    writeFileSync(join(root, 'rig/version.ts'), "export const VERSION: string = 'v2';\n");
    touchLater(join(root, 'rig/version.ts'));
    const edited = rig(root);
    expect(edited.status, edited.stderr).toBe(0);
    expect(edited.stdout).toBe('V2\n');
    expect(edited.stderr).toMatch(/^a2a-rig: sources changed since the last build; dist\/: compiled 1, copied 0/);
  });

  it('compiles again a source put back with an older time (a copy that keeps times)', async () => {
    const root = checkout('older', 'v1');
    await buildDist(root);
    writeFileSync(join(root, 'rig/version.ts'), "export const VERSION: string = 'v0';\n");
    const earlier = new Date(Date.now() - 3600_000);
    utimesSync(join(root, 'rig/version.ts'), earlier, earlier);
    const run = rig(root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('V0\n');
  });

  it('removes the output of a deleted source', async () => {
    const root = checkout('deleted', 'v1');
    await buildDist(root);
    rmSync(join(root, 'scenarios/one.ts'));
    expect((await buildDist(root)).removed).toBe(1);
    expect(existsSync(join(root, 'dist/scenarios/one.js'))).toBe(false);
  });

  it('refuses to run a source that does not compile: one line with file:line:col, exit 2', () => {
    const root = checkout('broken', 'v1');
    writeFileSync(join(root, 'rig/shout.ts'), 'export const shout = (s: string) => {\n  return s +;\n};\n');
    const run = rig(root);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^a2a-rig: cannot compile rig\/shout\.ts:2:13: Unexpected ";"/);
  });
});

describe('bin/a2a-rig.js in an installed package', () => {
  it('says to build when dist/ is missing: exit 2, one line', () => {
    const root = join(scratch, 'installed');
    mkdirSync(join(root, 'bin'), { recursive: true });
    copyFileSync(join(repoRoot, 'bin/a2a-rig.js'), join(root, 'bin/a2a-rig.js'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    const run = rig(root);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('a2a-rig: dist/rig/cli.js is missing: run npm run build\n');
  });
});
