// The a2a-sdk 1.3.0 peer behind bearer auth (test/peers/python/bearer_auth.py: every request but the
// card's GET needs `Authorization: Bearer <A2A_PEER_BEARER_TOKEN>`, and the card declares a bearer
// securitySchemes entry and requirement). With the token passed as --header 'Authorization: Bearer
// $PEER_TOKEN' (read from the environment), conform and a run pass, and the token appears in no file
// of the results and no line of output. Without it, nothing is judged as the agent's failure: the
// scenarios are not judged (exit 3, not 1) and their reason names the card's bearer scheme.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';
import { pythonPeerMissing, startPythonPeer, type PythonPeer } from './support/pythonPeers.ts';

const missing = pythonPeerMissing('1.3.0');
const TOKEN = `peer-token-${randomBytes(12).toString('hex')}`;
const HEADER = ['--header', 'Authorization: Bearer $PEER_TOKEN'];
const COMMON = ['--profile', 'smoke', '--toxiproxy', 'embedded'];

let peer: PythonPeer | undefined;
let out = '';
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-bearer-'));
  if (!missing) peer = await startPythonPeer({ sdk: '1.3.0', env: { A2A_PEER_BEARER_TOKEN: TOKEN } });
}, 60_000);
afterAll(async () => {
  await peer?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Every file the run wrote and everything it printed, without the token. */
function expectNoToken(dir: string, run: CliRun): void {
  for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name), 'utf8'), name).not.toContain(TOKEN);
  expect(run.stdout).not.toContain(TOKEN);
  expect(run.stderr).not.toContain(TOKEN);
}

describe.skipIf(missing !== undefined)('the a2a-sdk 1.3.0 peer behind bearer auth', () => {
  it('conform with the token from the environment passes; the token is in no output', async () => {
    const dir = join(out, 'conform');
    const run = await runRig(['conform', '--target', peer!.url, ...COMMON, ...HEADER, '--out', dir], 180_000, {
      PEER_TOKEN: TOKEN,
    });
    const { results } = readRunFiles(dir);
    const verdicts = results.scenarios.map((s) => `${s.name}: ${s.verdict} ${s.reason ?? ''}`).join('\n');
    expect(run.code, `${run.stderr}\n${verdicts}`).toBe(0);
    expect(results.verdict).toBe('passed');
    expectNoToken(dir, run);
  });

  it('run (a few scenarios, a flood among them) with the token passes', async () => {
    const dir = join(out, 'run');
    const scenarios = ['agent-card', 'activation', 'cf1', 'cf2', 'cf3'];
    const run = await runRig(
      ['run', ...scenarios, '--target', peer!.url, ...COMMON, ...HEADER, '--out', dir],
      120_000,
      {
        PEER_TOKEN: TOKEN,
      },
    );
    const { results } = readRunFiles(dir);
    expect(run.code, run.stderr).toBe(0);
    const verdicts = Object.fromEntries(results.scenarios.map((s) => [s.name, s.verdict]));
    expect(verdicts).toEqual(Object.fromEntries(scenarios.map((n) => [n, 'passed'])));
    expectNoToken(dir, run);
  });

  it('without the header nothing fails: not judged (exit 3), the reason names the bearer scheme', async () => {
    const dir = join(out, 'refused');
    const run = await runRig(['conform', '--target', peer!.url, ...COMMON, '--out', dir], 120_000);
    const { results } = readRunFiles(dir);
    expect(run.code, run.stderr).toBe(3);
    expect(results.verdict).toBe('inconclusive');
    for (const s of results.scenarios) {
      expect(s.verdict, s.name).not.toBe('failed');
      expect(s.verdict, s.name).not.toBe('passed');
      expect(
        s.checks.filter((c) => !c.ok && c.judged !== false),
        s.name,
      ).toEqual([]);
    }
    const card = results.scenarios.find((s) => s.name === 'agent-card')!;
    expect(card.verdict).toBe('inconclusive');
    expect(card.reason).toContain('not judged: HTTP 401 from POST');
    expect(card.reason).toContain(
      "the card asks for bearer (HTTP Authorization: Bearer …) — pass it with --header 'Authorization: Bearer $TOKEN'",
    );
  });
});
