// `a2a-rig conform` and `a2a-rig run` against an agent the rig did not write: a minimal agent built
// with the official SDK (@a2a-js/sdk 1.3.0) that does not declare hitl-prompt/v1. What holds for any
// A2A agent (agent-card) runs and passes; every scenario that needs something the agent lacks is
// skipped and says what (the extension, --restart-cmd, the reference agent's scripts); nothing
// errors; the three result files are written and parse. Nothing of hitl-prompt/v1 was tested, so
// the run is not a pass: verdict skipped, "NOTHING TESTED" in the headline, one line on stderr and
// exit code 3 — also when a threshold on checks.rate holds over the one scenario that ran.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig } from './support/rigCli.ts';
import { startSdkMinimalAgent, type SdkAgent } from './support/sdkMinimalAgent.ts';

const EXTENSION_SCENARIOS = ['activation', 'cf1', 'cf2', 'cf3', 'cf4', 'cf5', 'cf6', 'cf7'];
const NOT_DECLARED = 'the agent does not declare hitl-prompt/v1 in its card';

let agent: SdkAgent;
let out: string;
beforeAll(async () => {
  agent = await startSdkMinimalAgent();
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-foreign-'));
});
afterAll(async () => {
  await agent?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('the rig against a minimal @a2a-js/sdk agent without hitl-prompt/v1', () => {
  it(
    'conform: agent-card passes, ' + 'the extension scenarios are skipped with the reason, nothing tested, exit 3',
    async () => {
      const dir = join(out, 'conform');
      const run = await runRig(['conform', '--target', agent.url, '--out', dir, '--threshold', 'checks.rate>=1']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain(
        `a2a-rig: nothing was tested: all 8 scenarios that test hitl-prompt/v1 were skipped (${NOT_DECLARED}) — exit 3`,
      );
      expect(run.stdout).toMatch(/^a2a-rig NOTHING TESTED/);
      const { results, junit, summary } = readRunFiles(dir);

      expect(results.target).toMatchObject({
        kind: 'url',
        url: agent.url,
        agentName: 'sdk-minimal-agent',
        hitlDeclared: false,
      });
      // Discovered from the card, which offers JSON-RPC for A2A 1.0 only (SDK 1.3.0 is 1.0-native).
      expect(results.target.generation).toBe('1.0');
      expect(results.verdict).toBe('skipped');
      // The threshold holds over agent-card's checks; it is the exit code that keeps CI from going green.
      expect(results.thresholds?.map((t) => [t.expression, t.ok])).toEqual([['checks.rate>=1', true]]);

      const byName = Object.fromEntries(results.scenarios.map((s) => [s.name, s]));
      expect(Object.keys(byName).sort()).toEqual(['agent-card', ...EXTENSION_SCENARIOS].sort());
      expect(byName['agent-card'].verdict, byName['agent-card'].reason).toBe('passed');
      expect(byName['agent-card'].checks.length).toBeGreaterThanOrEqual(3);
      for (const name of EXTENSION_SCENARIOS) {
        expect(byName[name].verdict, name).toBe('skipped');
        expect(byName[name].reason, name).toContain(NOT_DECLARED);
        expect(byName[name].checks, name).toEqual([]);
      }

      // junit.xml parsed by a strict XML parser: one testcase per scenario, the skips with their reason.
      // (and the threshold as a testcase of its own, held).
      expect(junit.map((c) => c.name).sort()).toEqual([...Object.keys(byName), 'checks.rate>=1'].sort());
      for (const c of junit) {
        if (c.name === 'agent-card' || c.name === 'checks.rate>=1') expect(c).toEqual({ name: c.name });
        else expect(c.skipped, c.name).toContain(NOT_DECLARED);
      }
      expect(summary).toContain('sdk-minimal-agent');
      expect(summary).toMatch(/^# a2a-rig NOTHING TESTED/);
      expect(summary).toContain('Nothing was tested: all 8 scenarios that test hitl-prompt/v1 were skipped');
      expect(summary).toMatch(/\| agent-card \| PASS \|/);
    },
  );

  it('run (every scenario): nothing errors; crash and script scenarios also say what they lack; exit 3', async () => {
    const dir = join(out, 'run');
    const run = await runRig(['run', '--target', agent.url, '--out', dir]);
    expect(run.code, run.stderr).toBe(3);
    const { results, junit } = readRunFiles(dir);
    const byName = Object.fromEntries(results.scenarios.map((s) => [s.name, s]));
    const list = await runRig(['list']);
    const all = [...list.stdout.matchAll(/^(\S+)\s{2,}/gm)].map((m) => m[1]);
    expect(Object.keys(byName).sort()).toEqual(all.sort());
    expect(junit).toHaveLength(all.length);

    expect(
      results.scenarios
        .filter((s) => s.verdict === 'errored' || s.verdict === 'failed')
        .map((s) => `${s.name}: ${s.reason}`),
    ).toEqual([]);
    expect(byName['agent-card'].verdict).toBe('passed');
    expect(results.verdict).toBe('skipped');
    for (const s of results.scenarios.filter((x) => x.name !== 'agent-card')) {
      expect(s.verdict, s.name).toBe('skipped');
      // The acceptance-criteria scenarios name their own extension, which this agent does not declare either.
      if (s.tags.includes('acceptance'))
        expect(s.reason, s.name).toMatch(/does not declare the acceptance-criteria extension/);
      else expect(s.reason, s.name).toContain(NOT_DECLARED);
    }
    expect(byName['crash-restart'].reason).toContain('--restart-cmd');
    for (const name of ['oversized-schema', 'deep-nesting', 'disconnect-replay']) {
      expect(byName[name].reason, name).toContain('does not follow a2a-rig scripts');
    }
  });

  it('run agent-card alone: what was asked was tested, exit 0', async () => {
    const dir = join(out, 'agent-card');
    const run = await runRig(['run', 'agent-card', '--target', agent.url, '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(readRunFiles(dir).results.verdict).toBe('passed');
  });
});
