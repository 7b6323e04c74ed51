// `--binding` on the command line: one binding, every one the card offers (`all`, each into a
// directory of its own, the exit the worst of them), and the refusals that come before any traffic.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig } from './support/rigCli.ts';

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-bindings-'));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('--binding', () => {
  it(
    'all: a run per binding the card offers, each in its own directory; a failure on one fails all',
    {
      timeout: 120_000,
    },
    async () => {
      const dir = join(out, 'all');
      const args = ['run', 'cf3', '--binding', 'all', '--toxiproxy', 'none', '--agent-fault', 'skip-validation'];
      const run = await runRig([...args, '--out', dir], 110_000);
      expect(run.code, run.stderr).toBe(1);
      for (const [sub, binding] of [
        ['jsonrpc', 'JSONRPC'],
        ['http+json', 'HTTP+JSON'],
      ]) {
        const { results } = readRunFiles(join(dir, sub));
        expect(results.target.binding).toBe(binding);
        expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['cf3', 'failed']]);
      }
      expect(run.stderr).toMatch(/--binding all: JSON-RPC exit 1; HTTP\+JSON exit 1; gRPC /);
    },
  );

  it(
    'all at A2A 0.3: JSON-RPC and HTTP+JSON run; gRPC, which the card offers for 1.0 only, is passed over',
    {
      timeout: 120_000,
    },
    async () => {
      const dir = join(out, 'all-0.3');
      const args = ['run', 'cf3', '--binding', 'all', '--a2a-version', '0.3', '--toxiproxy', 'none'];
      const run = await runRig([...args, '--out', dir], 110_000);
      expect(run.code, run.stderr).toBe(0);
      for (const [sub, binding] of [
        ['jsonrpc', 'JSONRPC'],
        ['http+json', 'HTTP+JSON'],
      ]) {
        const { results } = readRunFiles(join(dir, sub));
        expect(results.target).toMatchObject({ binding, generation: '0.3' });
        expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['cf3', 'passed']]);
      }
      expect(run.stderr).toMatch(/--binding all: JSON-RPC exit 0; HTTP\+JSON exit 0; gRPC not offered by the card/);
    },
  );

  it(
    'a binding the card does not offer is refused before any traffic, naming what it offers',
    {
      timeout: 60_000,
    },
    async () => {
      // The embedded agent serves gRPC for A2A 1.0 only.
      const args = ['run', 'cf1', '--binding', 'grpc', '--a2a-version', '0.3', '--toxiproxy', 'none'];
      const run = await runRig([...args, '--out', join(out, 'g')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--binding gRPC: the card offers no gRPC interface for A2A 0\.3 the rig speaks \(it offers: JSON-RPC 1\.0 at/,
      );
    },
  );

  it('an unknown binding is a usage error', async () => {
    const run = await runRig(['run', 'cf1', '--binding', 'soap']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--binding must be jsonrpc, http\+json, grpc, all or auto, got "soap"/);
  });
});
