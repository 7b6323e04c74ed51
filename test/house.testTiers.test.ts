// The two test tiers: `npm test` runs every file, `npm run test:unit` the files that start no
// process. The unit tier is derived from imports (test/support/testTiers.ts) and guarded at run time
// (test/support/unitTierGuard.ts); these tests hold both halves and the "every file runs" rule.
// This file imports child_process itself (to see the guard act on an ESM import), so it runs in
// `npm test` only.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import everything from '../vitest.config.ts';
import { filesNoProjectRuns, processChain, testFiles, unitTestFiles, type ProjectGlobs } from './support/testTiers.ts';
import { refuseProcesses } from './support/unitTierGuard.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

function inMemory(files: Record<string, string>) {
  return (file: string) => files[file];
}

describe('the unit tier derivation', () => {
  it('leaves out a file that reaches a process-starting module through a helper, naming the way', () => {
    const read = inMemory({
      '/r/test/a.test.ts': "import { run } from './support/helper.ts';\nimport { x } from '../rig/x.js';",
      '/r/test/support/helper.ts': "import type { ChildProcess } from 'node:child_process';\nimport '../../rig/y.ts';",
      '/r/rig/x.ts': 'export const x = 1;',
      '/r/rig/y.ts': "export { spawn } from 'node:child_process';",
    });
    expect(processChain('/r/test/a.test.ts', read)).toEqual([
      '/r/test/a.test.ts',
      '/r/test/support/helper.ts',
      '/r/rig/y.ts',
      'node:child_process',
    ]);
  });

  it('follows dynamic imports and worker-thread module URLs, and counts what it cannot read', () => {
    const worker = inMemory({
      '/r/a.test.ts': "const w = new Worker(new URL('./w.mjs', import.meta.url));",
      '/r/w.mjs': "const peer = await import('./peer.ts');",
      '/r/peer.ts': "import { GenericContainer } from 'testcontainers';",
    });
    expect(processChain('/r/a.test.ts', worker)?.at(-1)).toBe('testcontainers');
    const missing = inMemory({ '/r/a.test.ts': "import './gone.ts';" });
    expect(processChain('/r/a.test.ts', missing)?.at(-1)).toBe('./gone.ts (unresolved)');
  });

  it('keeps a file whose imports stay in-process, type-only process imports included', () => {
    const read = inMemory({
      '/r/a.test.ts': "import type { ChildProcess } from 'node:child_process';\nimport { b } from './b.js';",
      '/r/b.ts': "import { readFileSync } from 'node:fs';\nexport const b = () => readFileSync('x');",
    });
    expect(processChain('/r/a.test.ts', read)).toBeUndefined();
  });

  it('is what test:unit runs: in-process files in, files that spawn the rig or a peer out', () => {
    const unit = unitTestFiles(root);
    const projects = (everything.test?.projects ?? []) as Array<{ test?: { name?: string; include?: string[] } }>;
    expect(projects.find((p) => p.test?.name === 'unit')?.test?.include).toEqual(unit);
    expect(unit).toContain('test/agent.roundTrip.test.ts');
    for (const spawner of ['test/cli.usage.test.ts', 'test/pythonPeers.wire.test.ts', 'test/ab.cli.test.ts'])
      expect(unit).not.toContain(spawner);
  });
});

describe('every test file runs under npm test', () => {
  it('finds a file no project includes, or one every including project excludes', () => {
    const projects = [{ include: ['test/**/*.test.ts'], exclude: ['test/b.test.ts'] }, { include: ['test/c.*.ts'] }];
    const files = ['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts', 'test/d.spec.ts', 'test/sub/e.test.ts'];
    expect(filesNoProjectRuns(files, projects)).toEqual(['test/b.test.ts', 'test/d.spec.ts']);
    // No include: vitest's default, every test file, less what the project excludes.
    expect(filesNoProjectRuns(files, [{ exclude: ['test/sub/**'] }])).toEqual(['test/sub/e.test.ts']);
  });

  it('has no such file in this repository', () => {
    const projects = (everything.test?.projects ?? [everything]) as Array<{ test?: ProjectGlobs }>;
    const globs = projects.map((project) => project.test ?? {});
    expect(testFiles(root).length).toBeGreaterThan(100);
    expect(filesNoProjectRuns(testFiles(root), globs)).toEqual([]);
  });
});

describe('the unit tier guard', () => {
  it('makes starting a process throw a clear error while a unit-tier file runs, and restores it', () => {
    const before = spawn;
    const restore = refuseProcesses('test/x.test.ts');
    try {
      expect(spawn).not.toBe(before);
      expect(() => spawn(process.execPath, ['--version'])).toThrow(
        /test\/x\.test\.ts called child_process\.spawn: the unit tier \(npm run test:unit\) starts no process/,
      );
    } finally {
      restore();
    }
    expect(spawn).toBe(before);
  });
});
