import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // A scenario outside the repository imports 'a2a-rig'; the CLI resolves it with a Node hook
  // (rig/engine/scenarioModuleHooks.mjs), tests that load such a file in-process resolve it here.
  resolve: { alias: { 'a2a-rig': fileURLToPath(new URL('./rig/scenarioApi.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites start real servers and child processes; two cores cannot take much more.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
