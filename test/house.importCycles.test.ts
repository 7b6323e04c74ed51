// The house has no import cycle: the arrows between rig's layers (and from bench into rig) run one
// way, type-only imports included. madge reads every import of rig/ and bench/; each cycle it
// finds is listed as `a.ts > b.ts` (the last imports the first back).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

interface MadgeResult {
  circular(): string[][];
  /** Imports madge could not resolve or files it could not read: a cycle through them would go unseen. */
  warnings(): { skipped: string[] };
}
type Madge = (paths: string[], config: { baseDir: string; fileExtensions: string[] }) => Promise<MadgeResult>;
const madge = createRequire(import.meta.url)('madge') as Madge;
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

it('no module of rig/ or bench/ imports itself back, not even a type', async () => {
  const result = await madge(['rig', 'bench'], { baseDir: repoRoot, fileExtensions: ['ts'] });
  expect(result.warnings().skipped, 'files madge could not read').toEqual([]);
  const cycles = result.circular().map((cycle) => cycle.join(' > '));
  expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
}, 60_000);
