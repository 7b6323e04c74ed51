// Every scenario imports one module, the scenario API ('a2a-rig'), besides the wire facts of
// rig/protocol and Node's built-ins: what a scenario may touch is the ScenarioContext and the
// helpers beside it, the same for the built-in scenarios as for a user's own. A file that imports
// anything else fails here, named with the import.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../rig/engine/scenarioCatalog.ts';
import { forbiddenScenarioImport } from './support/scenarioImports.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier of a file: static imports, re-exports, dynamic import() and require(). */
const specifiers = (file: string) =>
  ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);

const files = filesUnder(SCENARIOS_DIR);

describe('scenario imports', () => {
  it('reads every scenario file, conformance, acceptance and dos ones included', () => {
    expect(files.length).toBeGreaterThan(35);
    for (const dir of ['conformance', 'acceptance', 'dos'])
      expect(files.some((f) => f.includes(`/scenarios/${dir}/`))).toBe(true);
  });

  it("every file in scenarios/ imports only 'a2a-rig', rig/protocol and node: built-ins", () => {
    const broken = files.flatMap((file) =>
      specifiers(file).flatMap((s) => {
        const why = forbiddenScenarioImport(file, s);
        return why ? [`${file.slice(SCENARIOS_DIR.length)}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("the built-in scenarios import 'a2a-rig' alone: what they need of Node, the kit gives", () => {
    const others = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => s !== 'a2a-rig')
        .map((s) => `${file.slice(SCENARIOS_DIR.length)}: ${s}`),
    );
    expect(others).toEqual([]);
  });

  it('the rule names what it refuses', () => {
    const file = join(SCENARIOS_DIR, 'conformance/cf1.ts');
    expect(forbiddenScenarioImport(file, 'a2a-rig')).toBeUndefined();
    expect(forbiddenScenarioImport(file, 'node:crypto')).toBeUndefined();
    expect(forbiddenScenarioImport(file, '../../rig/protocol/errorCodes.ts')).toBeUndefined();
    expect(forbiddenScenarioImport(file, '../../rig/engine/kit/acceptanceMoves.ts')).toMatch(
      /rig\/engine\/kit\/acceptanceMoves\.ts.*import it from 'a2a-rig'/,
    );
    expect(forbiddenScenarioImport(file, 'undici')).toMatch(/undici is a package/);
    expect(forbiddenScenarioImport(file, './cf2.ts')).toMatch(/another scenario file/);
    expect(specifiers(join(SCENARIOS_DIR, 'conformance/cf1.ts'))).toEqual(['a2a-rig']);
  });
});
