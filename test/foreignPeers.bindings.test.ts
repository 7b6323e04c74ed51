// The a2a-sdk 1.3.0 peer (test/peers/python) serving one binding other than JSON-RPC: HTTP+JSON only
// (--binding http+json: the SDK's A2A 1.0 REST routes, AIP-193 errors keeping the contract's
// error.data, bare StreamResponse frames) and gRPC only (--binding grpc: the SDK's own gRPC server,
// errors as statuses with the contract's object in a detail; the card on HTTP). Neither serves
// acceptance-criteria, whose peer middleware reads JSON-RPC bodies. The rig reaches each on that
// binding alone, passes the correct peer and fails each broken one on the same check as over
// JSON-RPC: one variant per guarantee the binding puts on another wire (the answer's status and
// error body, the echo, the subscription stream).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerRuns } from './support/peerRuns.ts';
import { pythonPeerMissing } from './support/pythonPeers.ts';

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-peers-bindings-'));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const { rigAgainstPeer, explain, failing } = peerRuns(() => out);

const BROKEN: { fault: string; bindings: string[]; expect: Record<string, RegExp> }[] = [
  {
    fault: 'duplicate-accepted',
    bindings: ['http+json', 'grpc'],
    expect: { cf1: /second answer.*409/i, 'duplicate-flood': /exactly one .* accepted/i },
  },
  { fault: 'no-validation', bindings: ['http+json', 'grpc'], expect: { cf3: /422/ } },
  {
    fault: 'no-extension-echo',
    bindings: ['http+json', 'grpc'],
    expect: { cf2: /answer's reply echoes the activated extension URI/ },
  },
  {
    fault: 'silent-resubscribe',
    bindings: ['http+json'],
    expect: { cf6: /subscription to the parked task shows the open prompt: .*stayed open/ },
  },
];

const WIRE = { 'http+json': 'HTTP+JSON', grpc: 'GRPC' } as const;

for (const binding of ['http+json', 'grpc'] as const) {
  describe
    .skipIf(pythonPeerMissing('1.3.0') !== undefined)
    .concurrent(`the a2a-sdk 1.3.0 peer on ${binding} only`, () => {
      it(`correct peer: conform passes every scenario, over ${binding}`, { timeout: 150_000 }, async () => {
        const conform = (url: string) => ['conform', '--target', url];
        const { run, results } = await rigAgainstPeer('1.3.0', 'conform', [], conform, binding);
        expect(results.target.binding).toBe(WIRE[binding]);
        expect(
          results.scenarios.filter((s) => s.verdict !== 'passed').map((s) => s.name),
          explain(results),
        ).toEqual([]);
        expect(run.code, run.stderr).toBe(0);
      });

      for (const variant of BROKEN.filter((v) => v.bindings.includes(binding))) {
        const scenarios = Object.keys(variant.expect);
        it(
          `broken peer (${variant.fault}) fails ${scenarios.join(' and ')} over ${binding}`,
          {
            timeout: 150_000,
          },
          async () => {
            const args = (url: string) => ['run', ...scenarios, '--target', url];
            const { run, results } = await rigAgainstPeer('1.3.0', variant.fault, [variant.fault], args, binding);
            expect(results.target.binding).toBe(WIRE[binding]);
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
}
