// vitest's global setup: brings dist/ up to date before any test runs, so every rig process a test
// starts (bin/a2a-rig.js runs dist/) runs the sources under test, compiled once here rather than by
// the first of several test files' children at once.
import { buildDist, buildLine } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  const line = buildLine(await buildDist());
  if (line) console.log(line);
}
