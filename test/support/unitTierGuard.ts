// The unit tier's runtime half: in a unit-tier run, every way to start a process throws instead.
// The static walk (testTiers.ts) sees literal imports only; a module loaded by a computed path (a
// scenario file, a worker's iteration) that spawns is caught here, at the call.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const GUARDED: Array<[module: string, names: string[]]> = [
  ['node:child_process', ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']],
  ['node:cluster', ['fork']],
];

/** Makes every process-starting function throw until the returned function restores them. */
export function refuseProcesses(testFile = 'a unit-tier test'): () => void {
  const restores: Array<() => void> = [];
  for (const [name, functions] of GUARDED) {
    const exports = require(name) as Record<string, unknown>;
    for (const fn of functions) {
      const original = exports[fn];
      exports[fn] = () => {
        throw new Error(
          `${testFile} called ${name.replace('node:', '')}.${fn}: the unit tier (npm run test:unit) starts no ` +
            'process, so this file belongs in npm test only; see "Test tiers" in docs/testing.md',
        );
      };
      restores.push(() => (exports[fn] = original));
    }
  }
  // ESM named imports (`import { spawn } from 'node:child_process'`) see the change only after this.
  syncBuiltinESMExports();
  return () => {
    for (const restore of restores) restore();
    syncBuiltinESMExports();
  };
}
