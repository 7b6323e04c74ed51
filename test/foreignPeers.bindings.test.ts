// The HTTP+JSON-only variant of the a2a-sdk 1.3.0 peer (test/peers/python, --binding http+json: the
// SDK's A2A 1.0 REST routes, AIP-193 errors keeping the contract's error.data, bare StreamResponse
// frames; no acceptance-criteria, whose peer middleware reads JSON-RPC bodies). The rig reaches it
// on that binding alone, passes the correct peer and fails each broken one on the same check as over
// JSON-RPC: one variant per guarantee the binding puts on another wire (the answer's status and
// error body, the echo header, the subscription stream).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerRuns } from './support/peerRuns.ts';
import { pythonPeerMissing } from './support/pythonPeers.ts';

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-peers-rest-'));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const { rigAgainstPeer, explain, failing } = peerRuns(() => out);

const BROKEN: { fault: string; expect: Record<string, RegExp> }[] = [
  {
    fault: 'duplicate-accepted',
    expect: { cf1: /second answer.*409/i, 'duplicate-flood': /exactly one .* accepted/i },
  },
  { fault: 'no-validation', expect: { cf3: /422/ } },
  { fault: 'no-extension-echo', expect: { cf2: /answer's reply echoes the activated extension URI/ } },
  {
    fault: 'silent-resubscribe',
    expect: { cf6: /subscription to the parked task shows the open prompt: .*stayed open/ },
  },
];

describe.skipIf(pythonPeerMissing('1.3.0') !== undefined).concurrent('the a2a-sdk 1.3.0 peer on HTTP+JSON only', () => {
  it('correct peer: conform passes every scenario, over HTTP+JSON', { timeout: 150_000 }, async () => {
    const conform = (url: string) => ['conform', '--target', url];
    const { run, results } = await rigAgainstPeer('1.3.0', 'conform', [], conform, 'http+json');
    expect(results.target.binding).toBe('HTTP+JSON');
    expect(
      results.scenarios.filter((s) => s.verdict !== 'passed').map((s) => s.name),
      explain(results),
    ).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
  });

  for (const variant of BROKEN) {
    const scenarios = Object.keys(variant.expect);
    it(
      `broken peer (${variant.fault}) fails ${scenarios.join(' and ')} over HTTP+JSON`,
      { timeout: 150_000 },
      async () => {
        const args = (url: string) => ['run', ...scenarios, '--target', url];
        const { run, results } = await rigAgainstPeer('1.3.0', variant.fault, [variant.fault], args, 'http+json');
        expect(results.target.binding).toBe('HTTP+JSON');
        for (const name of scenarios) {
          const scenario = results.scenarios.find((s) => s.name === name)!;
          expect(scenario.verdict, explain(results)).toBe('failed');
          expect(failing(scenario).join('\n'), explain(results)).toMatch(variant.expect[name]);
        }
        expect(run.code, run.stderr).toBe(1);
      },
    );
  }
});
