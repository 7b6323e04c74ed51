// `a2a-rig list` shows every need of every scenario, and the needs are declared truthfully: a
// scenario that opens the replay plane for its tasks declares it, so it is skipped (before it sends
// anything) against an agent without one, instead of failing or skipping halfway.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NEED_LABELS, type ScenarioNeeds } from '../rig/engine/kit/defineScenario.ts';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';
import { catchText } from '../rig/engine/kit/faultCatches.ts';
import { hermeticEnv, runRig } from './support/rigCli.ts';
import { repoRoot } from './support/proxyBackends.ts';

const all = await loadScenarios();

describe('a2a-rig list', () => {
  it('shows each scenario with every need it declares, or that it needs nothing', { timeout: 30_000 }, async () => {
    const run = await runRig(['list']);
    expect(run.code, run.stderr).toBe(0);
    const blocks = new Map(run.stdout.split(/\n(?=\S)/).map((block) => [block.split(/\s/)[0], block]));
    expect([...blocks.keys()].sort()).toEqual(all.map((s) => s.name).sort());
    for (const s of all) {
      const needsLine = /needs: (.*)$/m.exec(blocks.get(s.name)!)?.[1];
      const declared = (Object.keys(NEED_LABELS) as Array<keyof ScenarioNeeds>)
        .filter((k) => s.needs[k])
        .map((k) => NEED_LABELS[k]);
      expect(needsLine, s.name).toBe(declared.length ? declared.join('; ') : 'nothing (any A2A agent)');
    }
    expect(blocks.get('disconnect-replay')).toContain('the replay plane (/events)');
    expect(blocks.get('crash-restart')).toContain('a restartable agent (embedded, or --restart-cmd)');
    expect(blocks.get('agent-card')).toContain('needs: nothing');
    // And the fault flags each one declares it catches (the mutation matrix's rows).
    for (const s of all)
      expect(/catches: (.*)$/m.exec(blocks.get(s.name)!)?.[1], s.name).toBe(
        s.catches?.length ? s.catches.map(catchText).join(', ') : undefined,
      );
    expect(blocks.get('cf1')).toContain('catches: accept-duplicates, no-extension-echo');
    expect(blocks.get('dos-slow')).toContain('catches: no-request-timeouts (on slowloris)');
  });

  it(
    'a reader that stops early (list | head) is no internal error: exit 0, nothing on stderr',
    { timeout: 30_000 },
    async () => {
      const child = spawn(process.execPath, ['bin/a2a-rig.js', 'list'], {
        cwd: repoRoot,
        env: hermeticEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      // Like head -c 1: read one chunk, then close the pipe while the rig still writes.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    },
  );

  it('every scenario that needs the replay plane for its tasks declares it', () => {
    // The ones that open /events unconditionally; crash-restart and cf6 use it only as an extra, and
    // duplicate-flood falls back to a subscription.
    const declared = all.filter((s) => s.needs.replayPlane).map((s) => s.name);
    expect(declared).toEqual(['disconnect-replay']);
  });
});
