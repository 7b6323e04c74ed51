// What a rig process loads before it does its work (issue 26): the compiled rig from dist/ and no
// TypeScript loader; `--version` no verb's module at all; an agent without --grpc-port neither
// protobufjs nor grpc-js. Each command runs through bin/a2a-rig.js with test/support/loadedModules.mjs
// preloaded, which lists every module URL the process resolved.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRig, startRigDaemon } from './support/rigCli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'a2a-rig-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const PRELOAD = new URL('./support/loadedModules.mjs', import.meta.url).href;

let files = 0;
function tracing(): { env: NodeJS.ProcessEnv; loaded: () => string[] } {
  const file = join(scratch, `loaded-${++files}.txt`);
  const env = { NODE_OPTIONS: `--import ${PRELOAD}`, RIG_LOADED_MODULES_FILE: file };
  return { env, loaded: () => readFileSync(file, 'utf8').trim().split('\n') };
}

const ownFiles = (urls: string[]) =>
  urls.filter((u) => u.startsWith('file:') && !u.includes('/node_modules/') && !u.includes('/test/support/'));

describe('a rig process loads the compiled rig only', () => {
  it('--version: no verb module, no TypeScript, nothing outside bin/, scripts/ and dist/', async () => {
    const trace = tracing();
    const run = await runRig(['--version'], 20_000, trace.env);
    expect(run.code, run.stderr).toBe(0);
    const loaded = trace.loaded();
    expect(loaded.filter((u) => u.includes('tsx'))).toEqual([]);
    expect(ownFiles(loaded).filter((u) => !/\/(bin|scripts|dist)\/[^?]*\.m?js$/.test(u))).toEqual([]);
    expect(loaded.filter((u) => /Command\.js$|\/runCommand\.js$/.test(u))).toEqual([]);
    expect(loaded.some((u) => u.endsWith('/dist/rig/cli.js'))).toBe(true);
  });

  it('agent without --grpc-port: neither protobufjs nor grpc-js; with it, the gRPC binding', async () => {
    const plain = tracing();
    const agent = await startRigDaemon(['agent', '--port', '0'], 20_000, plain.env);
    await agent.stop();
    const loaded = plain.loaded();
    expect(loaded.some((u) => u.endsWith('/dist/rig/agent/startAgent.js'))).toBe(true);
    expect(loaded.filter((u) => /grpc|protobuf|tsx/.test(u))).toEqual([]);

    const grpc = tracing();
    const withGrpc = await startRigDaemon(['agent', '--port', '0', '--grpc-port', '0'], 20_000, grpc.env);
    await withGrpc.stop();
    expect(grpc.loaded().some((u) => u.endsWith('/dist/rig/agent/grpcBinding.js'))).toBe(true);
  });
});
