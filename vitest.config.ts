import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The end-to-end files that run whole container stacks (three rig workers on Swarm, the compose
// stack, testcontainers) load both cores for a minute or more each; they run as a group of their
// own after every other file (docs/testing.md says why that is not a timing group).
const CONTAINER_STACKS = [
  'test/deploy.swarm.test.ts',
  'test/deploy.compose.test.ts',
  'test/containers.testcontainers.test.ts',
];

export default defineConfig({
  // A scenario outside the repository imports 'a2a-rig'; the CLI resolves it with a Node hook
  // (rig/engine/scenarioModuleHooks.mjs), tests that load such a file in-process resolve it here.
  resolve: { alias: { 'a2a-rig': fileURLToPath(new URL('./rig/scenarioApi.ts', import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites start real servers and child processes; two cores cannot take much more.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'rig',
          include: ['test/**/*.test.ts'],
          exclude: CONTAINER_STACKS,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'container-stacks', include: CONTAINER_STACKS, sequence: { groupOrder: 1 } } },
    ],
  },
});
