// 'a2a-rig' (rig/scenarioApi.ts) stays readable in one screen: at most 40 exported names, types and
// groups (`export * as wire`) counted alike. What only some scenarios use goes into a group, not
// the top level; a name added past the bound fails here, listed.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_NAMES = 40;
const API = new URL('../rig/scenarioApi.ts', import.meta.url);

/** Every name the module exports: each specifier of `export { a, type B }`, each `export * as g`. */
function exportedNames(source: string): string[] {
  const file = ts.createSourceFile('scenarioApi.ts', source, ts.ScriptTarget.Latest);
  return file.statements.flatMap((s) => {
    if (ts.isExportDeclaration(s)) {
      if (!s.exportClause) return ['* (an unnamed re-export hides how many)'];
      if (ts.isNamespaceExport(s.exportClause)) return [s.exportClause.name.text];
      return s.exportClause.elements.map((e) => e.name.text);
    }
    const modifiers = ts.canHaveModifiers(s) ? ts.getModifiers(s) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return [];
    if (ts.isVariableStatement(s)) return s.declarationList.declarations.map((d) => d.name.getText(file));
    const named = s as ts.Statement & { name?: ts.Identifier };
    return [named.name?.text ?? '(default)'];
  });
}

describe("'a2a-rig' exports", () => {
  it(`at most ${MAX_NAMES} names, every one once`, () => {
    const names = exportedNames(readFileSync(API, 'utf8'));
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(MAX_NAMES);
    expect(new Set(names).size).toBe(names.length);
  });

  it('counts what it should: named, typed and grouped exports alike', () => {
    const names = exportedNames(
      "export { a, type B } from './x.ts';\nexport type * as t from './y.ts';\nexport * as g from './z.ts';\n" +
        'export const c = 1, d = 2;\nexport function f() {}\nexport * from "./w.ts";\n',
    );
    expect(names).toEqual(['a', 'B', 't', 'g', 'c', 'd', 'f', '* (an unnamed re-export hides how many)']);
  });
});
