// wrk (Debian's package, a C load generator) as the generator benchmark's second raw peer
// (bench/generator.ts): a Lua script, written at run time, that cycles through the same requests
// the rig's client sends, POSTed as fixed bytes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClosedModelRequest } from '../rig/load/closedModel.ts';

export const wrkAvailable = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

const luaString = (s: string) => `[==[${s}]==]`;

/** Writes the Lua script into a new temp directory (the caller removes `dir`). */
export function writeWrkScript(requests: ClosedModelRequest[]): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-wrk-'));
  const script = join(dir, 'mix.lua');
  const headers = Object.entries(requests[0].headers ?? {});
  const prepare = `wrk.format("POST", ${luaString(requests[0].path ?? '/')}, headers, b)`;
  writeFileSync(
    script,
    [
      'local bodies = {',
      ...requests.map((r) => `  ${luaString(String(r.body))},`),
      '}',
      'local headers = {',
      ...headers.map(([k, v]) => `  [${luaString(k)}] = ${luaString(String(v))},`),
      '}',
      'local prepared = {}',
      'local i = 0',
      'function init(args)',
      `  for k, b in ipairs(bodies) do prepared[k] = ${prepare} end`,
      'end',
      'function request()',
      '  i = i + 1',
      '  return prepared[((i - 1) % #prepared) + 1]',
      'end',
      '',
    ].join('\n'),
  );
  return { dir, script };
}

/** Requests per second wrk reached on two threads over `connections` for `seconds`; throws on any error. */
export function rawWrk(url: string, script: string, connections: number, seconds: number): number {
  const run = spawnSync('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '-s', script, url], {
    encoding: 'utf8',
  });
  const out = `${run.stdout}${run.stderr}`;
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  if (run.status !== 0 || rate === undefined)
    throw new Error(`wrk failed: ${out.trim().split('\n').slice(-3).join(' | ')}`);
  if (/Non-2xx|Socket errors/.test(out))
    throw new Error(`wrk saw errors: ${out.trim().split('\n').slice(-4).join(' | ')}`);
  return Number(rate);
}
