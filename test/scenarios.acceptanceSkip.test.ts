// An acceptance scenario never looks green against an agent that cannot be gated the way it needs:
// against an agent whose card does not declare the acceptance-criteria extension every acceptance
// scenario is skipped with that reason and the run tested nothing (exit 3); against one that
// declares it without what a scenario needs (a cap of 0 rejections, no artifactSchema support),
// that scenario is skipped saying which.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCEPTANCE_URI } from '../rig/protocol/acceptance.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';
import { startSdkMinimalAgent } from './support/sdkMinimalAgent.ts';
import { startFakeAcceptanceAgent } from './support/fakeAcceptanceAgent.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-acc-skip-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('acceptance scenarios skip with a reason', () => {
  it.concurrent(
    'an agent without the extension: every acceptance scenario skipped, nothing tested, exit 3',
    { timeout: 60_000 },
    async () => {
      const agent = await startSdkMinimalAgent();
      try {
        const dir = join(out, 'undeclared');
        const run = await runRig(['run', 'acceptance', '--target', agent.url, '--toxiproxy', 'none', '--out', dir]);
        const { results } = readRunFiles(dir);
        const expected = (await loadScenarios()).filter((s) => s.tags.includes('acceptance')).map((s) => s.name);
        expect(expected.length).toBeGreaterThanOrEqual(12);
        expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual(expected.map((name) => [name, 'skipped']));
        // Every unmet need is named (acceptance-durability also says the agent cannot be restarted).
        for (const s of results.scenarios)
          expect(s.reason, s.name).toMatch(/does not declare the acceptance-criteria extension/);
        expect(results.verdict).toBe('skipped');
        expect(run.code, run.stderr).toBe(3);
      } finally {
        await agent.close();
      }
    },
  );

  it.concurrent(
    'a declaration without what a scenario needs: that scenario is skipped, saying what is missing',
    { timeout: 60_000 },
    async () => {
      const declaration = {
        uri: ACCEPTANCE_URI,
        required: false,
        params: { evaluators: ['client'], supportsArtifactSchema: false, maxRejectionsCap: 0 },
      };
      const agent = await startFakeAcceptanceAgent({ generation: '1.0', declaration });
      try {
        const dir = join(out, 'limited');
        const run = await runRig([
          'run',
          'acc-max-rejections',
          'acc-hostile-schema',
          '--target',
          agent.url,
          '--toxiproxy',
          'none',
          '--out',
          dir,
        ]);
        const { results } = readRunFiles(dir);
        expect(results.scenarios.map((s) => [s.name, s.verdict, s.reason])).toEqual([
          [
            'acc-hostile-schema',
            'skipped',
            'the agent declares the acceptance-criteria extension with supportsArtifactSchema false',
          ],
          [
            'acc-max-rejections',
            'skipped',
            'the scenario needs maxRejections 1; the agent declares maxRejectionsCap 0',
          ],
        ]);
        expect(run.code, run.stderr).toBe(3);
      } finally {
        await agent.close();
      }
    },
  );
});
