// The docs' tables of scenarios say which fault flags fail each one ("fails against"); the
// scenarios declare the same in their definitions (`catches`). This holds the tables of
// docs/scenarios.md and docs/acceptance-criteria.md to the declarations: per row, the flags the
// row names are exactly the flags its scenarios catch.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../rig/agent/faults.ts';
import { faultOf } from '../rig/engine/kit/faultCatches.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';

const all = await loadScenarios();
const FLAGS = Object.keys(FAULTS);

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const glob = (pattern: string, names: string[]) =>
  names.filter((n) => new RegExp(`^${pattern.replace(/[-]/g, '\\-').replace(/\*/g, '.*')}$`).test(n));

/** The scenarios a row's first cell names: `cf1` … `cf6` is a range, `acc-*` a pattern. */
function scenariosOf(cell: string): string[] {
  const names = all.map((s) => s.name);
  const range = /`([a-z-]*?)(\d+)` … `\1(\d+)`/.exec(cell);
  if (range)
    return Array.from(
      { length: Number(range[3]) - Number(range[2]) + 1 },
      (_, i) => `${range[1]}${Number(range[2]) + i}`,
    );
  return ticked(cell).flatMap((t) => (t.includes('*') ? glob(t, names) : names.includes(t) ? [t] : []));
}

/** The rows of every `| scenario | what must hold | fails against |` table in `doc`. */
function rows(doc: string): Array<{ scenarios: string[]; flags: string[]; line: string }> {
  const lines = read(doc).split('\n');
  const out: Array<{ scenarios: string[]; flags: string[]; line: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\| scenario \| .* \| fails against \|$/.test(lines[i]!)) continue;
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith('|'); j++) {
      const cells = lines[j]!.split(/(?<!\\)\|/).slice(1, -1);
      const flags = ticked(cells.at(-1)!).flatMap((t) => (t.includes('*') ? glob(t, FLAGS) : [t]));
      out.push({ scenarios: scenariosOf(cells[0]!), flags, line: lines[j]!.slice(0, 60) });
    }
  }
  return out;
}

describe.each(['docs/scenarios.md', 'docs/acceptance-criteria.md'])('the scenario table of %s', (doc) => {
  const table = rows(doc);

  it('is found, and each row names scenarios that exist', () => {
    expect(table.length).toBeGreaterThan(5);
    for (const row of table) expect(row.scenarios.length, row.line).toBeGreaterThan(0);
  });

  it('names, per row, exactly the fault flags its scenarios declare they catch', () => {
    for (const row of table) {
      const declared = new Set(
        row.scenarios.flatMap((name) => (all.find((s) => s.name === name)?.catches ?? []).map(faultOf)),
      );
      expect([...new Set(row.flags)].sort(), row.line).toEqual([...declared].sort());
    }
  });
});

it('docs/scenarios.md has a row for every scenario', () => {
  const listed = new Set(rows('docs/scenarios.md').flatMap((r) => r.scenarios));
  expect(all.map((s) => s.name).filter((n) => !listed.has(n))).toEqual([]);
});
