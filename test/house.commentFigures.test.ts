// Comments under rig/ and scenarios/ say what the code is for and why; a figure measured on one
// machine on one day goes to docs/benchmarks.md or docs/testing.md with its date (issue 27, item 7).
// Two marks of such a figure are cheap to spot and never a parameter: a calendar date and a load
// average with its value. Only comments are read (the TypeScript scanner, in the parser's context),
// so a date in a string, a field named "load average" or JSON Schema's "draft 2020-12" is no hit.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const ONE_DAY_MARKS = [/\b20\d\d-[01]\d-[0-3]\d\b/, /\bload average (?:of |was |at )?[~≈]?\d/i];

/** Every comment of a TypeScript or JavaScript source, with its 1-based line. */
function comments(fileName: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  // Every token is a child here (getChildren), so a comment before a closing brace is seen too.
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen].map(([pos, comment]) => ({
    line: source.getLineAndCharacterOfPosition(pos).line + 1,
    text: comment,
  }));
}

/** `file:line: comment line` for every comment line that carries a one-day mark. */
function oneDayFigures(fileName: string, text: string): string[] {
  const hits: string[] = [];
  for (const c of comments(fileName, text)) {
    c.text.split('\n').forEach((line, i) => {
      if (ONE_DAY_MARKS.some((mark) => mark.test(line))) hits.push(`${fileName}:${c.line + i}: ${line.trim()}`);
    });
  }
  return hits;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(?:ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('comments carry no one-day figures', () => {
  it('finds a date and a load average planted in comments, and nothing in code or strings', () => {
    const planted = [
      "const day = '2026-12-04'; // draft 2020-12",
      'const re = /\\/\\/ 2026-12-04/;',
      '/** The 1-minute load average per core as the run started. */',
      'function f() {',
      '  return 1;',
      '  // took 2.1 s here on 2026-12-04',
      '}',
      '/* measured at load average 12 */',
    ].join('\n');
    expect(oneDayFigures('planted.ts', planted)).toEqual([
      'planted.ts:6: // took 2.1 s here on 2026-12-04',
      'planted.ts:8: /* measured at load average 12 */',
    ]);
  });

  it('none under rig/ or scenarios/', () => {
    const files = ['rig', 'scenarios'].flatMap((dir) => sources(join(repoRoot, dir)));
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((file) => oneDayFigures(relative(repoRoot, file), readFileSync(file, 'utf8')));
    expect(hits, `move these figures to docs/benchmarks.md or docs/testing.md:\n${hits.join('\n')}`).toEqual([]);
  });
});
