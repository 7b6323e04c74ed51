// The package as a user gets it (issue 26): `npm pack`, the tarball installed into an empty
// directory, then `npx a2a-rig run` and `conform --target` from there, on the compiled code with no
// TypeScript loader anywhere on the rig's path (test/support/loadedModules.mjs lists what the
// process loaded), and a user's scenario in TypeScript that imports 'a2a-rig' checked by tsc against
// the shipped .d.ts (and a wrong one refused, so the types are real, not `any`).
//
// Hermetic: nothing is fetched. `npm install --offline` needs registry metadata to resolve version
// ranges, which the npm cache does not hold after `npm ci`; so the directory gets a package-lock.json
// made from the repository's (the same versions `npm ci` installed, whose tarballs the cache holds)
// and npm installs exactly that. Install scripts are off: better-sqlite3 has no prebuilt binary
// without the network and would compile SQLite (minutes of CPU), so its binding is copied from the
// repository's node_modules (same version, same Node); the others (esbuild, protobufjs) only check.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';

const repoRoot = new URL('../', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'a2a-rig-package-'));
const project = join(scratch, 'project');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const PRELOAD = new URL('./support/loadedModules.mjs', import.meta.url).href;

/** The environment without npm's own variables (set when the tests run under `npm test`). */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  delete env.TOXIPROXY_URL;
  return { ...env, ...extra };
}

function sh(cmd: string, args: string[], cwd: string, timeoutMs: number, env = cleanEnv()): SpawnSyncReturns<string> {
  const run = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  if (run.error) throw new Error(`${cmd} ${args.join(' ')}: ${run.error.message}\n${run.stderr}`);
  return run;
}

function mustPass(run: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  if (run.status !== 0) throw new Error(`${what} exited ${run.status}:\n${run.stdout}\n${run.stderr}`.slice(-3000));
  return run;
}

interface LockEntry {
  dev?: boolean;
  [key: string]: unknown;
}

/** package.json and package-lock.json of a project that depends on the tarball only. */
function writeProject(tarball: string): void {
  const manifest = JSON.parse(sh('tar', ['-xOzf', tarball, 'package/package.json'], scratch, 10_000).stdout);
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'user-project', dependencies: { 'a2a-rig': spec } },
    'node_modules/a2a-rig': {
      resolved: spec,
      ...Object.fromEntries(
        ['version', 'license', 'dependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines'].map(
          (k) => [k, manifest[k]],
        ),
      ),
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev) packages[path] = entry;
  mkdirSync(project, { recursive: true });
  const pkg = { name: 'user-project', private: true, type: 'module', dependencies: { 'a2a-rig': spec } };
  writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify({ name: 'user-project', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
}

const SCENARIO = `import { defineScenario, everyProfile, type ScenarioDefinition } from 'a2a-rig';

const mine: ScenarioDefinition<{ rounds: number }> = defineScenario({
  name: 'mine',
  description: 'a user scenario in TypeScript',
  tags: ['user'],
  needs: {},
  params: everyProfile({ rounds: 1 }),
  budgetMs: everyProfile(10_000),
  records: { latencies: [], counters: {} },
  async run(ctx, params) {
    ctx.check('ran', params.rounds === 1);
  },
});
export default mine;
`;

beforeAll(() => {
  mustPass(sh('npm', ['pack', '--pack-destination', scratch], repoRoot, 180_000), 'npm pack');
  const tarball = join(
    scratch,
    readdirSync(scratch).find((f) => f.endsWith('.tgz'))!,
  );
  writeProject(tarball);
  const install = ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'];
  mustPass(sh('npm', install, project, 120_000), 'npm install --offline');
  const binding = 'node_modules/better-sqlite3/build/Release';
  cpSync(join(repoRoot, binding, 'better_sqlite3.node'), join(project, binding, 'better_sqlite3.node'));
  mkdirSync(join(project, 'my-scenarios'));
  writeFileSync(join(project, 'my-scenarios/mine.ts'), SCENARIO);
}, 300_000);

const tracedEnv = (file: string) => cleanEnv({ NODE_OPTIONS: `--import ${PRELOAD}`, RIG_LOADED_MODULES_FILE: file });

describe('the packed package, installed into an empty directory', () => {
  it('npx a2a-rig run: the compiled rig from node_modules, no TypeScript loader', () => {
    const trace = join(scratch, 'run-modules.txt');
    const run = sh('npx', ['--offline', 'a2a-rig', 'run', 'cf1', '--out', 'out'], project, 60_000, tracedEnv(trace));
    mustPass(run, 'a2a-rig run cf1');
    const results = JSON.parse(readFileSync(join(project, 'out/results.json'), 'utf8'));
    expect(results.scenarios.map((s: { name: string; verdict: string }) => [s.name, s.verdict])).toEqual([
      ['cf1', 'passed'],
    ]);
    const loaded = readFileSync(trace, 'utf8').trim().split('\n');
    expect(loaded.filter((u) => /tsx|\.ts$/.test(u))).toEqual([]);
    expect(loaded).toContain(`file://${project}/node_modules/a2a-rig/dist/rig/cli.js`);
    // Besides npx's own modules and the preload: only the project's node_modules.
    const foreign = loaded.filter(
      (u) => u.startsWith('file:') && !u.startsWith(`file://${project}/node_modules/`) && !u.includes('/npm/'),
    );
    expect(foreign.filter((u) => !u.includes('/test/support/loadedModules'))).toEqual([]);
  });

  it('conform --target an agent it started itself', async () => {
    const cli = join(project, 'node_modules/.bin/a2a-rig');
    const agent = await startJsonLineChild<{ url: string }>(process.execPath, [cli, 'agent', '--port', '0'], {
      name: 'installed agent',
      timeoutMs: 20_000,
      cwd: project,
      env: cleanEnv(),
    });
    try {
      const args = ['--offline', 'a2a-rig', 'conform', '--target', agent.info.url, '--out', 'conform'];
      mustPass(sh('npx', args, project, 120_000), 'a2a-rig conform');
    } finally {
      await agent.stop(5_000);
    }
  });

  it("a TypeScript scenario importing 'a2a-rig' type-checks against the shipped .d.ts, and runs", () => {
    const tsconfig = {
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      include: ['my-scenarios'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    mustPass(sh(process.execPath, [tsc, '-p', '.'], project, 60_000), 'tsc');
    // The types are real: a wrong field is refused.
    writeFileSync(join(project, 'my-scenarios/wrong.ts'), SCENARIO.replace("name: 'mine'", 'name: 42'));
    const wrong = sh(process.execPath, [tsc, '-p', '.'], project, 60_000);
    rmSync(join(project, 'my-scenarios/wrong.ts'));
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(
      /wrong\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/,
    );

    const list = mustPass(
      sh('npx', ['--offline', 'a2a-rig', 'list', '--scenarios', 'my-scenarios'], project, 60_000),
      'list',
    );
    expect(list.stdout).toMatch(/^mine\s+a user scenario in TypeScript$/m);
  });

  it('--env containers without testcontainers installed: one line naming the package, exit 2', () => {
    const run = sh('npx', ['--offline', 'a2a-rig', 'run', 'cf1', '--env', 'containers', '--out', 'c'], project, 60_000);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'a2a-rig: --env containers needs the testcontainers package: npm install testcontainers@11\n',
    );
  });
});
