// Compiles the rig to JavaScript in dist/ (`npm run build`; `prepare` runs it, so `npm ci` builds it):
// rig/ and scenarios/ file by file with esbuild's transform (no bundle, so every module keeps its own
// URL: workers, module hooks and scenario specs name modules by URL), relative `.ts` import
// specifiers rewritten to `.js`, the other files (.mjs, .proto, the contract's JSON) copied as they
// are. `--types` also emits the package's .d.ts files with tsc (buildTypes, before `npm pack`);
// checking types is `npm run typecheck`'s job, not this one's.
//
// Incremental: a file is compiled again only when its source changed since it was built (or this
// script did; see staleness()), and an output whose source is gone is removed (a deleted scenario
// must not live on in dist/scenarios/). So bin/a2a-rig.js and the test setup call buildDist() on
// every start in a checkout and pay only for the walk when nothing changed; each output is written
// to a temporary name and renamed, so two builds at once never leave a half-written module.
// Plain JavaScript: it runs before anything is compiled, with no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
/** The repository this script belongs to; tests build a scratch copy instead. */
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE_DIRS = ['rig', 'scenarios'];
const TS = /\.([cm]?)ts$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** A relative specifier of a static import/export, a side-effect import or an import() with a literal. */
const RELATIVE_TS_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]*?)\.([cm]?)ts\2/g;

/** `import './x.ts'` → `import './x.js'` in compiled code (what tsc's rewriteRelativeImportExtensions does). */
export function rewriteSpecifiers(code) {
  return code.replace(
    RELATIVE_TS_SPECIFIER,
    (_m, lead, quote, path, flavour) => `${lead}${quote}${path}.${flavour}js${quote}`,
  );
}

function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** What dist/ must hold: for each source file, its output and whether it is compiled or copied. */
function plan(root) {
  return SOURCE_DIRS.flatMap((top) =>
    walk(join(root, top))
      .filter((src) => !DECLARATION.test(src))
      .map((src) => {
        const rel = relative(root, src);
        const compile = TS.test(rel);
        return { src, rel, compile, out: join(root, 'dist', compile ? rel.replace(TS, '.$1js') : rel) };
      }),
  );
}

/** A file's modification time and size, or undefined when it does not exist. */
const stamp = (file) => {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
};

const manifestPath = (root) => join(root, 'dist', '.build-manifest.json');

function readManifest(root) {
  try {
    return JSON.parse(readFileSync(manifestPath(root), 'utf8'));
  } catch {
    return { files: {} };
  }
}

/**
 * The files to compile or copy again, and the outputs no source stands behind any more. A source is
 * stale when its stamp (mtime and size) differs from the one its last build recorded in dist/'s
 * manifest, not only when it is newer: a file put back with an older time (a copy that keeps
 * times, an editor's backup) is rebuilt too. A new build script rebuilds everything.
 */
export function staleness(root = REPO_ROOT) {
  const files = plan(root).map((f) => ({ ...f, stamp: stamp(f.src) }));
  // The script by its content: a copy of it (the tests' scratch checkouts) builds the same way.
  const self = createHash('sha256').update(readFileSync(SELF)).digest('hex');
  const manifest = readManifest(root);
  const stale = files.filter(
    (f) => manifest.self !== self || manifest.files[f.rel] !== f.stamp || stamp(f.out) === undefined,
  );
  const expected = new Set(files.map((f) => f.out));
  const orphans = SOURCE_DIRS.flatMap((top) => walk(join(root, 'dist', top))).filter(
    (out) => !expected.has(out) && !out.includes(`${sep}.build-`) && !DECLARATION.test(out),
  );
  return { files, stale, orphans, self };
}

function writeAtomically(out, data) {
  mkdirSync(dirname(out), { recursive: true });
  const temp = `${out}.build-${process.pid}`;
  writeFileSync(temp, data);
  renameSync(temp, out);
}

async function compileOne(esbuild, file) {
  const source = readFileSync(file.src, 'utf8');
  const { code } = await esbuild.transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    platform: 'node',
    sourcefile: file.rel,
    // The repository's tsconfig.json: ES2022 class fields, as tsc checks them.
    tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } },
  });
  writeAtomically(file.out, rewriteSpecifiers(code));
}

async function loadEsbuild() {
  try {
    return await import('esbuild');
  } catch (err) {
    throw new Error(`cannot build dist/: esbuild is not installed (npm ci installs it): ${err.message}`, {
      cause: err,
    });
  }
}

/**
 * Brings dist/ up to date with the sources; does nothing (but the walk) when it is. Returns what it
 * did. A source that does not compile throws, naming the file and esbuild's first error.
 */
export async function buildDist(root = REPO_ROOT) {
  const started = performance.now();
  const { files, stale, orphans, self } = staleness(root);
  for (const out of orphans) rmSync(out, { force: true });
  if (stale.length === 0) return { compiled: 0, copied: 0, removed: orphans.length, total: files.length, ms: 0 };
  const esbuild = stale.some((f) => f.compile) ? await loadEsbuild() : undefined;
  await Promise.all(
    stale.map(async (f) => {
      if (!f.compile) return writeAtomically(f.out, readFileSync(f.src));
      try {
        await compileOne(esbuild, f);
      } catch (err) {
        const first = err.errors?.[0];
        const where = first?.location ? `${f.rel}:${first.location.line}:${first.location.column + 1}` : f.rel;
        throw new Error(`cannot compile ${where}: ${first?.text ?? err.message}`, { cause: err });
      }
    }),
  );
  // What was built from what; written last, so a failed build is tried again.
  const manifest = { self, files: Object.fromEntries(files.map((f) => [f.rel, f.stamp])) };
  writeAtomically(manifestPath(root), JSON.stringify(manifest));
  const compiled = stale.filter((f) => f.compile).length;
  return {
    compiled,
    copied: stale.length - compiled,
    removed: orphans.length,
    total: files.length,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The package's type declarations (`npm run build:types`, which `prepack` runs): tsc emits them
 * beside the code (tsconfig.types.json: 'a2a-rig' and what its types name), their relative `.ts`
 * specifiers made `.js` as the code's are, so a user's tsc resolves them to the .d.ts files. Old
 * declarations are removed first: the build of the code leaves them alone.
 */
export function buildTypes(root = REPO_ROOT) {
  const declarations = () => walk(join(root, 'dist')).filter((f) => DECLARATION.test(f));
  for (const old of declarations()) rmSync(old);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.types.json')], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`tsc -p tsconfig.types.json failed (exit ${run.status ?? run.signal})`);
  const files = declarations();
  for (const file of files) writeFileSync(file, rewriteSpecifiers(readFileSync(file, 'utf8')));
  return files.length;
}

/** One line about a build that did something; undefined when it had nothing to do. */
export function buildLine(r) {
  if (r.compiled + r.copied + r.removed === 0) return undefined;
  return `dist/: compiled ${r.compiled}, copied ${r.copied}, removed ${r.removed} of ${r.total} files in ${r.ms} ms`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const clean = process.argv.includes('--clean');
  if (clean) rmSync(join(REPO_ROOT, 'dist'), { recursive: true, force: true });
  try {
    const line = buildLine(await buildDist());
    console.log(line ?? 'dist/ is up to date');
    if (process.argv.includes('--types')) console.log(`dist/: ${buildTypes()} type declarations`);
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
