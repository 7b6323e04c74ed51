// --target with the other environment flags, through the real CLI: our reference agent runs as a
// process the rig did not start (launched by a shell script, its pid in a pidfile), and
// `--restart-cmd` is a script that kills it with -9 and starts it again on the same port and
// database. crash-restart must pass through that, and resume-latency must get its faults from a
// Toxiproxy API given by URL (`a2a-rig proxy`, seen by the rig as an external Toxiproxy). Without
// those flags the same scenarios are skipped and say which flag they lack.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig, startRigDaemon, type RigDaemon } from './support/rigCli.ts';
import { freePort, processAlive } from './support/localHost.ts';

const CLI = new URL('../bin/a2a-rig.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-target-'));
const pidFile = join(dir, 'agent.pid');
const startScript = join(dir, 'start.sh');
const restartScript = join(dir, 'restart.sh');
let url = '';
let proxy: RigDaemon<{ api: string }> | undefined;

const agentPid = () => Number(readFileSync(pidFile, 'utf8').trim());

/** Polls (bounded) until the agent serves its card. */
async function waitForCard(timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (let attempt = 0; performance.now() < deadline && attempt < 400; attempt++) {
    const ok = await fetch(`${url}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `the agent did not serve its card at ${url} within ${timeoutMs} ms: ` +
      `${readFileSync(join(dir, 'agent.log'), 'utf8')}`,
  );
}

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // The agent outlives the script that starts it (nohup, background): the pidfile is how it is owned.
  const [db, log] = [join(dir, 'outbox.db'), join(dir, 'agent.log')];
  writeFileSync(
    startScript,
    `#!/bin/sh
nohup "${process.execPath}" "${CLI}" agent --host 127.0.0.1 --port ${port} --db "${db}" >> "${log}" 2>&1 < /dev/null &
echo $! > "${pidFile}"
`,
  );
  // kill -9, wait (bounded) until the old process is gone so the port is free, start again.
  writeFileSync(
    restartScript,
    `#!/bin/sh
pid=$(cat "${pidFile}")
kill -9 "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
exec sh "${startScript}"
`,
  );
  await promisify(execFile)('sh', [startScript], { timeout: 10_000 });
  await waitForCard();
  proxy = await startRigDaemon(['proxy', '--api-port', '0']);
});

afterAll(async () => {
  await proxy?.stop();
  try {
    const pid = agentPid();
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('--target with --restart-cmd and --toxiproxy URL', () => {
  it(
    'crash-restart passes through the restart command; resume-latency gets its faults from the given Toxiproxy',
    { timeout: 90_000 },
    async () => {
      const before = agentPid();
      const out = join(dir, 'with-flags');
      const run = await runRig(
        [
          'run',
          'crash-restart',
          'resume-latency',
          '--target',
          url,
          '--restart-cmd',
          `sh "${restartScript}"`,
          '--toxiproxy',
          proxy!.info.api,
          '--out',
          out,
        ],
        80_000,
      );
      expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
      const { results } = readRunFiles(out);
      expect(results.target).toMatchObject({
        kind: 'url',
        url,
        agentName: 'a2a-rig reference agent',
        hitlDeclared: true,
      });
      expect(results.proxy).toMatchObject({ backend: 'external', api: proxy!.info.api });
      const byName = Object.fromEntries(results.scenarios.map((s) => [s.name, s]));
      expect(byName['crash-restart'].verdict, byName['crash-restart'].reason).toBe('passed');
      expect(byName['crash-restart'].counters.restarts).toBe(1);
      expect(byName['resume-latency'].verdict, byName['resume-latency'].reason).toBe('passed');

      // The agent really was killed and replaced, and the new one is the one serving now.
      const after = agentPid();
      expect(after).not.toBe(before);
      expect(processAlive(before)).toBe(false);
      expect(processAlive(after)).toBe(true);
      expect(readFileSync(join(dir, 'agent.log'), 'utf8').match(/^\{"url":/gm)).toHaveLength(2);
      // The rig leaves nothing behind in a Toxiproxy it was lent.
      const proxies = await fetch(`${proxy!.info.api}/proxies`).then((r) => r.json());
      expect(proxies).toEqual({});
    },
  );

  it(
    'without --restart-cmd and with --toxiproxy none the same scenarios are skipped, ' +
      'saying which flag they lack; nothing tested, exit 3',
    async () => {
      const out = join(dir, 'without-flags');
      const run = await runRig([
        'run',
        'crash-restart',
        'resume-latency',
        '--target',
        url,
        '--toxiproxy',
        'none',
        '--out',
        out,
      ]);
      expect(run.code, run.stderr).toBe(3);
      const { results, junit } = readRunFiles(out);
      expect(results.proxy).toBeNull();
      const byName = Object.fromEntries(results.scenarios.map((s) => [s.name, s]));
      expect(byName['crash-restart']).toMatchObject({ verdict: 'skipped', checks: [] });
      expect(byName['crash-restart'].reason).toContain('pass --restart-cmd with --target');
      expect(byName['resume-latency']).toMatchObject({ verdict: 'skipped', checks: [] });
      expect(byName['resume-latency'].reason).toContain('--toxiproxy none');
      expect(junit.map((c) => Boolean(c.skipped))).toEqual([true, true]);
    },
  );
});
