// The table in docs/architecture.md ("folder | imports from | imported by") is the house's rule for
// which folder may import which; this test holds the code to it, type-only imports included, and
// holds the table to the code (no allowed arrow that no import uses). madge reads the imports of
// rig/ and bench/ (as house.importCycles does); the "imports from" column is read as a list of
// names, each optionally narrowed to files: `load` (`workerShares.ts` only: why) allows imports of
// load's workerShares.ts and nothing else of load. Scenarios are held to their one import by
// test/scenarios.imports.test.ts, so their row is not read here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface MadgeResult {
  obj(): Record<string, string[]>;
  warnings(): { skipped: string[] };
}
type Madge = (paths: string[], config: { baseDir: string; fileExtensions: string[] }) => Promise<MadgeResult>;
const madge = createRequire(import.meta.url)('madge') as Madge;
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** Which part a name of the table belongs to (a row may name several files, which then form one part). */
interface ArchitectureTable {
  partOf: Map<string, string>;
  /** part → the parts it may import from → the files it may import there (undefined: any of them). */
  allowed: Map<string, Map<string, string[] | undefined>>;
}

const codeSpans = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** A row's key as the code names it: `rig/load` → load, `rig/cli.ts` → cli.ts, `bench/` → bench. */
function tableName(key: string): string {
  return key.replace(/^rig\//, '').replace(/\/$/, '');
}

/** The part a file of the graph belongs to, named as the table names it. */
function nameOfFile(file: string): string {
  const inRig = /^rig\/([^/]+)/.exec(file);
  if (inRig) return inRig[1];
  if (file.startsWith('test/support/')) return 'test/support';
  return file.split('/')[0];
}

/** Splits a cell at the commas outside parentheses. */
function items(cell: string): string[] {
  const out = [''];
  let depth = 0;
  for (const ch of cell) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) out.push('');
    else out[out.length - 1] += ch;
  }
  return out.map((item) => item.trim()).filter((item) => item.length > 0);
}

/** One item of "imports from": a name, and the files it is narrowed to when its note says "only". */
function importItem(item: string, row: string): [string, string[] | undefined] {
  const match = /^`([^`]+)`(?: only)?(?:\s*\((.*)\))?$/s.exec(item);
  if (!match) throw new Error(`architecture table, row ${row}: cannot read "${item}" (want \`name\` (note))`);
  const note = match[2] ?? '';
  const only = note.indexOf(' only');
  if (only < 0) return [match[1], undefined];
  const files = codeSpans(note.slice(0, only));
  if (files.length === 0) throw new Error(`architecture table, row ${row}: "${item}" says only, but names no file`);
  return [match[1], files];
}

function readRows(markdown: string): [string[], string][] {
  const start = markdown.indexOf('| folder | imports from | imported by |');
  if (start < 0) throw new Error('docs/architecture.md has no "folder | imports from | imported by" table');
  const lines = markdown.slice(start).split('\n');
  const end = lines.findIndex((line) => !line.startsWith('|'));
  return lines
    .slice(2, end < 0 ? undefined : end)
    .map((line) => line.split(' | '))
    .map(([key, from]): [string[], string] => [codeSpans(key), from])
    .filter(([keys]) => keys.length > 0 && keys.every((k) => /^(rig|bench|test)\//.test(k)));
}

/** Reads the table; a name that no row defines is an error in the table, not a pass. */
function parseArchitectureTable(markdown: string): ArchitectureTable {
  const rows = readRows(markdown);
  const partOf = new Map<string, string>();
  for (const [keys] of rows)
    for (const key of keys) {
      if (partOf.has(tableName(key))) throw new Error(`architecture table: ${key} has two rows`);
      partOf.set(tableName(key), tableName(keys[0]));
    }
  const allowed = new Map<string, Map<string, string[] | undefined>>();
  for (const [keys, from] of rows) {
    const part = tableName(keys[0]);
    const edges = new Map<string, string[] | undefined>();
    const cell = from.trim().startsWith('nothing of ours') ? [] : items(from);
    for (const [name, files] of cell.map((item) => importItem(item, keys[0]))) {
      const to = partOf.get(name);
      if (to === undefined) throw new Error(`architecture table, row ${keys[0]}: \`${name}\` has no row`);
      edges.set(to, files);
    }
    allowed.set(part, edges);
  }
  return { partOf, allowed };
}

const endsWithFile = (file: string, names: string[]): boolean => names.some((n) => file.endsWith(`/${n}`));

/** Every import of the graph (file → files it imports) that the table does not allow, as one line each. */
function tableViolations(table: ArchitectureTable, graph: Record<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [file, imports] of Object.entries(graph)) {
    const from = table.partOf.get(nameOfFile(file));
    if (from === undefined) {
      problems.push(`${file}: \`${nameOfFile(file)}\` has no row in the table`);
      continue;
    }
    for (const imported of imports) {
      const to = table.partOf.get(nameOfFile(imported));
      if (to === from) continue;
      const edges = table.allowed.get(from);
      const files = edges?.get(to ?? '');
      if (edges?.has(to ?? '') && (files === undefined || endsWithFile(imported, files))) continue;
      const why = files ? `may import only ${files.join(', ')} of` : 'may not import from';
      problems.push(`${file} imports ${imported}: \`${from}\` ${why} \`${to ?? imported}\``);
    }
  }
  return problems;
}

/** The table's arrows (and the files an arrow is narrowed to) that no import of the graph uses. */
function staleEdges(table: ArchitectureTable, graph: Record<string, string[]>): string[] {
  const used = new Set<string>();
  for (const [file, imports] of Object.entries(graph)) {
    const from = table.partOf.get(nameOfFile(file));
    for (const imported of imports) {
      const to = table.partOf.get(nameOfFile(imported));
      used.add(`${from} → ${to}`);
      used.add(`${from} → ${to}: ${imported.split('/').at(-1)}`);
    }
  }
  const stale: string[] = [];
  for (const [from, edges] of table.allowed)
    for (const [to, files] of edges) {
      if (!used.has(`${from} → ${to}`)) stale.push(`\`${from}\` may import from \`${to}\`, but nothing does`);
      for (const f of files ?? [])
        if (!used.has(`${from} → ${to}: ${f.split('/').at(-1)}`))
          stale.push(`\`${from}\` → \`${to}\` (\`${f}\`) is unused`);
    }
  return stale;
}

describe('the architecture table', () => {
  it('allows every import of rig/ and bench/, and lists no arrow that no import uses', async () => {
    const table = parseArchitectureTable(readFileSync(`${repoRoot}docs/architecture.md`, 'utf8'));
    const result = await madge(['rig', 'bench'], { baseDir: repoRoot, fileExtensions: ['ts'] });
    expect(result.warnings().skipped, 'files madge could not read').toEqual([]);
    const graph = result.obj();
    expect(Object.keys(graph).length, 'madge found the files').toBeGreaterThan(100);
    const problems = tableViolations(table, graph);
    expect.soft(problems, `imports the table does not allow:\n${problems.join('\n')}`).toEqual([]);
    const stale = staleEdges(table, graph);
    expect(stale, `arrows of the table no import uses:\n${stale.join('\n')}`).toEqual([]);
  }, 60_000);

  const planted = [
    '| folder | imports from | imported by |',
    '|---|---|---|',
    '| `rig/protocol` | nothing of ours | everything |',
    '| `rig/load` | `protocol` | `attack` |',
    '| `rig/attack` | `protocol`, `load` (`workerShares.ts` only: a note naming `other.ts`) | nobody |',
    '| `rig/cli.ts`, `rig/runCommand.ts` | `attack` | nobody |',
    '| `scenarios/` | `a2a-rig` (`rig/scenarioApi.ts`) only | nobody |',
    '',
  ].join('\n');

  it('names the importing and the imported file of an upward arrow and of a file outside the narrowing', () => {
    const table = parseArchitectureTable(planted);
    const graph = {
      'rig/protocol/a.ts': ['rig/load/b.ts'],
      'rig/attack/c.ts': ['rig/load/workers/workerShares.ts', 'rig/load/other.ts', 'rig/protocol/a.ts'],
      'rig/cli.ts': ['rig/runCommand.ts', 'rig/attack/c.ts'],
      'rig/runCommand.ts': ['rig/load/b.ts'],
      'rig/load/b.ts': ['rig/stats/d.ts'],
    };
    expect(tableViolations(table, graph)).toEqual([
      'rig/protocol/a.ts imports rig/load/b.ts: `protocol` may not import from `load`',
      'rig/attack/c.ts imports rig/load/other.ts: `attack` may import only workerShares.ts of `load`',
      'rig/runCommand.ts imports rig/load/b.ts: `cli.ts` may not import from `load`',
      'rig/load/b.ts imports rig/stats/d.ts: `load` may not import from `rig/stats/d.ts`',
    ]);
    const clean = { 'rig/attack/c.ts': ['rig/load/workers/workerShares.ts'], 'rig/load/b.ts': [] };
    expect(tableViolations(table, clean)).toEqual([]);
    expect(staleEdges(table, clean)).toEqual([
      '`load` may import from `protocol`, but nothing does',
      '`attack` may import from `protocol`, but nothing does',
      '`cli.ts` may import from `attack`, but nothing does',
    ]);
  });

  it('calls a file of a folder with no row, and a name with no row, errors', () => {
    const table = parseArchitectureTable(planted);
    expect(tableViolations(table, { 'rig/ab/x.ts': [] })).toEqual(['rig/ab/x.ts: `ab` has no row in the table']);
    const unknown = planted.replace('| `protocol` | `attack` |', '| `protocol`, `lode` | `attack` |');
    expect(() => parseArchitectureTable(unknown)).toThrow('row rig/load: `lode` has no row');
    expect(() => parseArchitectureTable('# no table')).toThrow('has no "folder | imports from | imported by" table');
    const twice = planted.replace('| `rig/cli.ts`, `rig/runCommand.ts` |', '| `rig/cli.ts`, `rig/load` |');
    expect(() => parseArchitectureTable(twice)).toThrow('rig/load has two rows');
    const noFile = planted.replace('(`workerShares.ts` only', '(shares only');
    expect(() => parseArchitectureTable(noFile)).toThrow('says only, but names no file');
  });
});
