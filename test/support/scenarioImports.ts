// What a file in scenarios/ may import: the scenario API ('a2a-rig', rig/scenarioApi.ts), the
// wire facts of rig/protocol, and Node's built-ins. One list, for test/scenarios.imports.test.ts
// (and for a lint rule that says the same).
import { dirname, relative, resolve } from 'node:path';
import { repoRoot } from './proxyBackends.ts';

export const SCENARIO_IMPORT_RULE = "a scenario imports only from 'a2a-rig', rig/protocol/ and node: built-ins";

/** Why `specifier`, imported by `file` (absolute), breaks the rule; undefined when it is allowed. */
export function forbiddenScenarioImport(file: string, specifier: string): string | undefined {
  if (specifier === 'a2a-rig' || specifier.startsWith('node:')) return undefined;
  if (specifier.startsWith('.')) {
    const target = relative(repoRoot, resolve(dirname(file), specifier));
    if (target.startsWith('rig/protocol/') || target === 'rig/scenarioApi.ts') return undefined;
    if (target.startsWith('scenarios/')) return `${specifier} is another scenario file: share code through 'a2a-rig'`;
    return `${specifier} (${target}) is not the scenario API: import it from 'a2a-rig'`;
  }
  return `${specifier} is a package: ${SCENARIO_IMPORT_RULE}`;
}
