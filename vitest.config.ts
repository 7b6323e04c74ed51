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
// The DoS runs against the Python peers still hold them to wall-clock gates a neighbour can break
// (legitimate-traffic errors under the peers' request timeouts, the refusal bound, recovery): one
// file at a time, after the rest. A known debt; docs/testing.md has the runs beside CPU hogs.
const PEER_DOS = ['test/foreignPeers.dos.test.ts', 'test/foreignPeers.dosFaults.test.ts'];

export default defineConfig({
  // A scenario outside the repository imports 'a2a-rig'; the CLI resolves it with a Node hook
  // (rig/engine/scenarioModuleHooks.mjs), tests that load such a file in-process resolve it here.
  resolve: { alias: { 'a2a-rig': fileURLToPath(new URL('./rig/scenarioApi.ts', import.meta.url)) } },
  test: {
    // Compiles what changed into dist/ first: the CLI the tests start runs from there (scripts/build.mjs).
    globalSetup: ['test/support/buildDist.ts'],
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
          exclude: [...CONTAINER_STACKS, ...PEER_DOS],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'peer-dos', include: PEER_DOS, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'container-stacks', include: CONTAINER_STACKS, sequence: { groupOrder: 2 } } },
    ],
  },
});
