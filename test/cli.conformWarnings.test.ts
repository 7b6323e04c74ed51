// `conform` against agents whose 422 strays from the contract's examples/invalid-response-422.json.
// The spec's MUST is the validation_errors array; extension and prompt_id are the example's shape.
// An agent whose only deviation is that shape (`rejection-data-bare`) passes with the warnings
// listed, exit 0; with --strict cf3 fails on them (and cf7 with it), exit 1. An agent whose 422
// has no validation_errors at all (`rejection-detail-only`, as the extension authors' executor
// answers: only `detail`) still fails cf3 on the MUST, --strict or not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultName } from '../rig/agent/faults.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';

const SHAPE_CHECK = "the wrong-type rejection's error.data is {extension, prompt_id, validation_errors}";
const MUST_CHECK = 'wrong-type payload is rejected with 422 / -32011 and validation_errors';

let out: string;
const agents: Array<Awaited<ReturnType<typeof inProcessAgent>>> = [];
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-warnings-'));
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.cleanup()));
  if (out) rmSync(out, { recursive: true, force: true });
});

/** `conform` against a reference agent started with `fault`, its results in out/`name`. */
async function conform(fault: FaultName, name: string, ...flags: string[]) {
  const agent = await inProcessAgent([fault]);
  agents.push(agent);
  const dir = join(out, name);
  const cli = await runRig(['conform', '--target', agent.url, '--toxiproxy', 'none', '--out', dir, ...flags]);
  const files = readRunFiles(dir);
  const byName = Object.fromEntries(files.results.scenarios.map((s) => [s.name, s]));
  return { cli, ...files, byName };
}

describe("conform against an agent whose 422 lacks only the example's extension and prompt_id", () => {
  it.concurrent('passes with the warnings listed: exit 0', { timeout: 60_000 }, async () => {
    const { cli, results, byName, summary, junit } = await conform('rejection-data-bare', 'bare');
    expect(cli.code, cli.stderr).toBe(0);
    expect(results.verdict).toBe('passed');
    const cf3 = byName.cf3!;
    expect(cf3.verdict).toBe('passed');
    expect(cf3.warnings).toBe(3);
    expect(results.warnings).toBe(3);
    const shape = cf3.checks.find((c) => c.name.startsWith(SHAPE_CHECK))!;
    expect(shape).toMatchObject({ ok: false, level: 'example' });
    expect(shape.detail).toContain('error.data.extension is absent');
    expect(shape.detail).toContain('error.data.prompt_id is absent');
    expect(cf3.checks.find((c) => c.name.includes(MUST_CHECK))).toMatchObject({ ok: true });
    expect(byName.cf7!.verdict).toBe('passed');
    expect(cli.stdout).toContain('warnings    3 warnings');
    expect(cli.stdout).toContain("cf3 · example shape · the wrong-type rejection's error.data is");
    expect(summary).toContain('## Warnings (SHOULD and contract-example shape)');
    expect(junit.find((c) => c.name === 'cf3')).toEqual({ name: 'cf3' });
  });

  it.concurrent('--strict: cf3 fails on the warning, and cf7 with it: exit 1', { timeout: 60_000 }, async () => {
    const { cli, results, byName, junit } = await conform('rejection-data-bare', 'strict', '--strict');
    expect(cli.code, cli.stderr).toBe(1);
    expect(results).toMatchObject({ verdict: 'failed', strict: true, warnings: 3 });
    expect(byName.cf3!.verdict).toBe('failed');
    expect(byName.cf3!.reason).toContain(`example shape check failed under --strict: ${SHAPE_CHECK}`);
    expect(byName.cf7!.verdict).toBe('failed');
    expect(junit.find((c) => c.name === 'cf3')!.failure).toContain('failed under --strict');
  });
});

describe('conform against an agent whose 422 has no validation_errors (only detail)', () => {
  it.concurrent('fails cf3 on the MUST: exit 1', { timeout: 60_000 }, async () => {
    const { cli, byName } = await conform('rejection-detail-only', 'detail');
    expect(cli.code, cli.stderr).toBe(1);
    const cf3 = byName.cf3!;
    expect(cf3.verdict).toBe('failed');
    expect(cf3.reason).toContain(MUST_CHECK);
    expect(cf3.checks.find((c) => c.name.includes(MUST_CHECK))).toMatchObject({ ok: false });
    expect(cf3.checks.find((c) => c.name.includes(MUST_CHECK))).not.toHaveProperty('level');
  });
});

// The extension authors' own executor mints version-7 prompt_ids (RFC 9562): a valid UUID, which
// the contract schema's pattern (versions 1-5) predates. Every cf scenario passes; cf5 warns.
describe('conform against an agent whose prompt_ids are version-7 UUIDs', () => {
  const PATTERNS = "the envelope matches envelope.schema.json's patterns to the letter";

  it.concurrent('passes with cf5 warning: exit 0; --strict fails cf5: exit 1', { timeout: 60_000 }, async () => {
    const [plain, strict] = await Promise.all([
      conform('prompt-id-v7', 'v7'),
      conform('prompt-id-v7', 'v7-strict', '--strict'),
    ]);
    expect(plain.cli.code, plain.cli.stderr).toBe(0);
    const cf5 = plain.byName.cf5!;
    expect(cf5).toMatchObject({ verdict: 'passed', warnings: 1 });
    const check = cf5.checks.find((c) => c.name === PATTERNS)!;
    expect(check).toMatchObject({ ok: false, level: 'example' });
    expect(check.detail).toMatch(/is a version-7 UUID \(RFC 9562\)/);
    expect(Object.values(plain.byName).filter((s) => s.verdict !== 'passed')).toEqual([]);
    expect(strict.cli.code, strict.cli.stderr).toBe(1);
    expect(strict.byName.cf5!.verdict).toBe('failed');
  });
});
