// The documentation holds together: every relative link in the repository's Markdown files points
// at a file that exists inside the repository, every #anchor at a heading that exists (GitHub's
// slugs), nothing links to an absolute path or file: URL, and no text file mentions the specs'
// location outside the repository (a clone does not have it). The checker is tested on broken
// input first, so a checker that finds nothing cannot pass for a clean tree.
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Never scanned: dependencies, tools, git, and run outputs (results/ but its committed baselines). */
const SKIP_DIRS = new Set(['node_modules', '.git', '.tools']);
const TEXT_FILE = /\.(md|ts|js|mjs|cjs|json|ya?ml|sh|py|txt|toml|html)$|^(Dockerfile|run)$/;
const MAX_SCANNED_BYTES = 4 * 1024 * 1024;
/** Written in pieces so this file does not mention them itself. */
const OUTSIDE_MENTIONS = [['..', 'shared'].join('/'), ['', 'work', 'shared'].join('/')];

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      if (SKIP_DIRS.has(entry.name)) continue;
      if (rel.split(sep)[0] === 'results' && rel !== 'results' && !rel.startsWith(join('results', 'baselines')))
        continue;
      walk(path, out);
    } else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * GitHub's heading ids: lower case, punctuation and symbols dropped (but `-` and `_`), spaces to
 * dashes, repeats numbered.
 */
function slugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    return n === undefined ? base : `${base}-${n + 1}`;
  };
}

/** The Markdown outside fenced code blocks, one entry per line (fenced lines blanked, so line numbers hold). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

function anchorsOf(markdown: string): Set<string> {
  const slug = slugger();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) anchors.add(slug(heading[1]!));
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  const lines = proseLines(markdown.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' ')));
  lines.forEach((raw, i) => {
    // Inline code is not a link; `a|b` in a table cell is not either.
    const line = raw.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: i + 1, target: m[1]! });
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (reference) links.push({ line: i + 1, target: reference[1]! });
  });
  return links;
}

/** Every problem with the links of one Markdown file at `file` (absolute), one line each. */
function linkProblems(
  file: string,
  markdown: string,
  root: string,
  read: (path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const where = (l: Link) => `${relative(root, file)}:${l.line}: ${l.target}`;
  for (const link of linksOf(markdown)) {
    const { target } = link;
    if (/^file:/i.test(target)) {
      problems.push(`${where(link)}: a file: URL`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s), mailto: not checked here
    if (target.startsWith('/')) {
      problems.push(`${where(link)}: an absolute path; link relative to this file`);
      continue;
    }
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? file : resolve(dirname(file), pathPart);
    const rel = relative(root, resolved);
    if (rel.startsWith('..') || resolve(root, rel) !== resolved) {
      problems.push(`${where(link)}: points outside the repository`);
      continue;
    }
    const text = pathPart === '' ? markdown : read(resolved);
    if (text === undefined) {
      problems.push(`${where(link)}: no such file or directory`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && !anchorsOf(text).has(anchor)) {
      problems.push(`${where(link)}: no heading with the anchor #${anchor} in ${relative(root, resolved)}`);
    }
  }
  return problems;
}

/** A file's text; '' for a directory (it exists, and has no anchors); undefined when absent. */
function readRepoPath(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? '' : readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

describe('the link checker itself', () => {
  const root = resolve('/repo');
  const files: Record<string, string> = {
    [join(root, 'README.md')]: '# Title\n\n## Quick start\n\n## `a2a-rig run`, `a2a-rig conform`\n\n## Quick start\n',
    [join(root, 'docs/cli.md')]:
      '# CLI\n\n## `a2a-rig compare` — the regression gate\n\n## Thresholds (`--threshold`, `--thresholds-file`)\n',
  };
  const read = (path: string) => files[path] ?? (path === join(root, 'docs') ? '' : undefined);
  const check = (markdown: string, at = 'README.md') => linkProblems(join(root, at), markdown, root, read);

  it('computes GitHub heading ids', () => {
    expect([...anchorsOf(files[join(root, 'docs/cli.md')]!)]).toEqual([
      'cli',
      'a2a-rig-compare--the-regression-gate',
      'thresholds---threshold---thresholds-file',
    ]);
    expect([...anchorsOf(files[join(root, 'README.md')]!)]).toEqual([
      'title',
      'quick-start',
      'a2a-rig-run-a2a-rig-conform',
      'quick-start-1',
    ]);
  });

  it('accepts links that resolve', () => {
    expect(
      check(
        '[a](docs/cli.md) [b](docs/cli.md#a2a-rig-compare--the-regression-gate) ' +
          '[d](docs/) [e](https://example.com/x#y)',
      ),
    ).toEqual([]);
    expect(check('## Quick start\n\n## Quick start\n\n[c](#quick-start-1)')).toEqual([]);
    expect(check('[up](../README.md#quick-start)', 'docs/cli.md')).toEqual([]);
  });

  it('reports a missing file, a missing anchor, an absolute path, a file: URL and a way out of the repository', () => {
    const problems = check(
      [
        '[a](docs/nope.md)',
        '[b](docs/cli.md#nope)',
        '[c](#quick-starts)',
        '[d](/etc/passwd)',
        '[e](file:///etc/passwd)',
        `[f](../${'shared'}/specs/spec.md)`,
        '[ref]: docs/gone.md',
      ].join('\n'),
    );
    expect(problems).toEqual([
      'README.md:1: docs/nope.md: no such file or directory',
      'README.md:2: docs/cli.md#nope: no heading with the anchor #nope in docs/cli.md',
      'README.md:3: #quick-starts: no heading with the anchor #quick-starts in README.md',
      'README.md:4: /etc/passwd: an absolute path; link relative to this file',
      'README.md:5: file:///etc/passwd: a file: URL',
      `README.md:6: ../${'shared'}/specs/spec.md: points outside the repository`,
      'README.md:7: docs/gone.md: no such file or directory',
    ]);
  });

  it('ignores links in code blocks, inline code and HTML comments', () => {
    expect(check('```sh\n[a](nope.md)\n```\n`[b](nope.md)` <!-- [c](nope.md) -->\n')).toEqual([]);
  });
});

describe('the repository documentation', () => {
  const files = walk(ROOT);
  const markdown = files.filter((f) => f.endsWith('.md'));

  it('finds the README and the docs', () => {
    const rel = markdown.map((f) => relative(ROOT, f));
    expect(rel).toContain('README.md');
    expect(rel.filter((f) => f.startsWith(`docs${sep}`)).length).toBeGreaterThan(5);
  });

  it('has no broken relative link or anchor, and none leaves the repository', () => {
    const texts = markdown.map((file) => [file, readFileSync(file, 'utf8')] as const);
    // The docs link to each other a great deal: finding almost none would mean the parser broke.
    expect(texts.reduce((n, [, text]) => n + linksOf(text).length, 0)).toBeGreaterThan(50);
    const problems = texts.flatMap(([file, text]) => linkProblems(file, text, ROOT, readRepoPath));
    expect(problems).toEqual([]);
  });

  it('mentions no path outside the repository (the specs a clone does not have)', () => {
    const hits: string[] = [];
    for (const file of files) {
      const name = file.slice(file.lastIndexOf(sep) + 1);
      if (!TEXT_FILE.test(name) || lstatSync(file).size > MAX_SCANNED_BYTES) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const needle of OUTSIDE_MENTIONS)
            if (line.includes(needle)) hits.push(`${relative(ROOT, file)}:${i + 1}: ${needle}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
