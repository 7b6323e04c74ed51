import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites start real servers and child processes; two cores cannot take much more.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
