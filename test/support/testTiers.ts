// Which test files form the unit tier (`npm run test:unit`): the ones that cannot start another
// process. The tier is derived, not listed by hand, so a file moves out of it the moment it (or
// anything it imports) can spawn a child, a Python peer, a container or a browser. A runtime guard
// (test/support/unitTierGuard.ts) backs the derivation up for what a static walk cannot see.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Modules whose mere presence in a file's import closure means it can leave the process. */
export const PROCESS_MODULES = [
  'node:child_process',
  'child_process',
  'node:cluster',
  'cluster',
  'testcontainers',
  'playwright-core',
  'dockerode',
  'toxiproxy-node-client',
];

// Static and dynamic imports with a literal specifier, re-exports, and module URLs handed to
// worker threads or child processes (`new URL('./x.ts', import.meta.url)`). Type-only imports are
// erased before anything runs, so they do not count.
const SPECIFIERS = [
  /\b(?:import|export)\s+(?!type\s)[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+\.[cm]?[jt]s)['"]\s*,\s*import\.meta\.url\s*\)/g,
];
const SOURCE_EXTENSIONS = ['', '.ts', '.mts', '.js', '.mjs', '/index.ts'];

export type ReadSource = (file: string) => string | undefined;

const readFromDisk: ReadSource = (file) =>
  statSync(file, { throwIfNoEntry: false })?.isFile() ? readFileSync(file, 'utf8') : undefined;

function specifiers(source: string): string[] {
  return SPECIFIERS.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]));
}

function resolveLocal(from: string, specifier: string, read: ReadSource): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = SOURCE_EXTENSIONS.map((ext) => base + ext);
  // TypeScript sources import each other as './x.js'.
  if (base.endsWith('.js')) candidates.unshift(base.slice(0, -3) + '.ts');
  return candidates.find((candidate) => read(candidate) !== undefined);
}

/**
 * The chain of files from `file` to the first process-starting module it reaches, or undefined when
 * its whole local import closure stays in-process. An unresolvable local import counts as reaching
 * one: a walk that cannot see a file must not call it safe.
 */
export function processChain(file: string, read: ReadSource = readFromDisk): string[] | undefined {
  const parent = new Map<string, string | undefined>([[file, undefined]]);
  const queue = [file];
  const chainTo = (last: string, end: string): string[] => {
    const chain = [end];
    for (let at: string | undefined = last; at; at = parent.get(at)) chain.unshift(at);
    return chain;
  };
  while (queue.length > 0) {
    const current = queue.shift()!;
    const source = read(current);
    if (source === undefined) return chainTo(current, '(unreadable)');
    for (const specifier of specifiers(source)) {
      if (PROCESS_MODULES.includes(specifier)) return chainTo(current, specifier);
      if (!specifier.startsWith('.')) continue;
      const next = resolveLocal(current, specifier, read);
      if (next === undefined) return chainTo(current, `${specifier} (unresolved)`);
      if (parent.has(next)) continue;
      parent.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}

/** Every test file under `testDir` (recursively), as paths relative to `root`, sorted. */
export function testFiles(root: string, testDir = 'test'): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) found.push(relative(root, path));
    }
  };
  walk(join(root, testDir));
  return found.sort();
}

/** The unit tier: the test files whose import closure starts no process. */
export function unitTestFiles(root: string, read: ReadSource = readFromDisk): string[] {
  // The closures overlap (every file reaches much of rig/): read each module once.
  const sources = new Map<string, string | undefined>();
  const cached: ReadSource = (file) => {
    if (!sources.has(file)) sources.set(file, read(file));
    return sources.get(file);
  };
  return testFiles(root).filter((file) => processChain(join(root, file), cached) === undefined);
}

/** A vitest include/exclude glob as a regular expression (`**`, `*`, `?` and `{a,b}`; what the configs use). */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  const special: Record<string, string> = { '*': '[^/]*', '?': '[^/]', '{': '(?:', '}': ')', ',': '|' };
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**', i)) {
      const slash = glob[i + 2] === '/';
      pattern += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else pattern += special[glob[i]] ?? glob[i].replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

export interface ProjectGlobs {
  include?: string[];
  exclude?: string[];
}

/**
 * The test files no project runs: each file must be included by a project that does not exclude it.
 * A project without `include` has vitest's default, which every file `testFiles` lists matches.
 */
export function filesNoProjectRuns(files: string[], projects: ProjectGlobs[]): string[] {
  const matches = (file: string, globs: string[] = []) => globs.some((glob) => globToRegExp(glob).test(file));
  const included = (file: string, p: ProjectGlobs) => p.include === undefined || matches(file, p.include);
  return files.filter((file) => !projects.some((p) => included(file, p) && !matches(file, p.exclude)));
}
