#!/usr/bin/env node
// The rig runs compiled, from dist/ (scripts/build.mjs; `npm ci` builds it). In a checkout of the
// repository (the TypeScript sources beside bin/) whatever changed since the last build is compiled
// first, so no command ever runs an old build; an installed package has no sources, only dist/.
import { existsSync } from 'node:fs';

// EXIT.usage (rig/exitCodes.ts): what the user has to fix before the rig can run.
const EXIT_USAGE = 2;
const root = new URL('../', import.meta.url);
const fail = (message) => {
  process.stderr.write(`a2a-rig: ${message}\n`);
  process.exit(EXIT_USAGE);
};

if (existsSync(new URL('rig/cli.ts', root))) {
  const { buildDist, buildLine } = await import('../scripts/build.mjs');
  try {
    const line = buildLine(await buildDist());
    if (line) process.stderr.write(`a2a-rig: sources changed since the last build; ${line}\n`);
  } catch (err) {
    fail(`${err.message} (npm run build shows it too)`);
  }
}
if (!existsSync(new URL('dist/rig/cli.js', root))) fail('dist/rig/cli.js is missing: run npm run build');
await import('../dist/rig/cli.js');
