import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { unitTestFiles } from './test/support/testTiers.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
// The files that start no process (test/support/testTiers.ts derives them from their imports): one
// module graph per worker instead of one per file, as `npm run test:unit` runs them. Most of such a
// file's time was importing the rig again; every other file stays isolated.
const UNIT = unitTestFiles(root);

export default defineConfig({
  // A scenario outside the repository imports 'a2a-rig'; the CLI resolves it with a Node hook
  // (rig/engine/scenarioModuleHooks.mjs), tests that load such a file in-process resolve it here.
  resolve: { alias: { 'a2a-rig': fileURLToPath(new URL('./rig/scenarioApi.ts', import.meta.url)) } },
  test: {
    // Compiles what changed into dist/ first: the CLI the tests start runs from there (scripts/build.mjs).
    globalSetup: ['test/support/buildDist.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Four at once on two cores: most end-to-end files wait on phases, peers and timeouts, so two
    // left the cores half idle (docs/testing.md has the runs); no file asks for the machine to itself.
    maxWorkers: 4,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, isolate: false, setupFiles: ['test/support/unitTierSetup.ts'] },
      },
      { extends: true, test: { name: 'rig', include: ['test/**/*.test.ts'], exclude: UNIT } },
    ],
  },
});
