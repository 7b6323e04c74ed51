// The unit tier (`npm run test:unit`): the test files that start no process, derived from their
// imports by test/support/testTiers.ts, with every process-starting call refused while they run.
// `npm test` (vitest.config.ts) still runs every file, these included.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { unitTestFiles } from './test/support/testTiers.ts';
import everything from './vitest.config.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: everything.resolve,
  test: {
    include: unitTestFiles(root),
    setupFiles: ['test/support/unitTierSetup.ts'],
    testTimeout: everything.test?.testTimeout,
    hookTimeout: everything.test?.hookTimeout,
    maxWorkers: everything.test?.maxWorkers,
    // One module graph per worker instead of one per file: most of an in-process file's time was
    // importing the rig again. npm test keeps each file isolated.
    isolate: false,
    reporters: ['default'],
  },
});
