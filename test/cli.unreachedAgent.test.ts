// The rig's reach is never the agent's fault (issue 24, item 4). Steered by its card to an endpoint
// it cannot reach (--follow-card-endpoint) — https: on a plain-HTTP server, or a port nothing
// listens on — no request ever reaches the agent, so no scenario may fail: each one that needs the
// agent errors saying the rig could not reach it and why, cf7 has no verdict to give, and the DoS
// family, whose attacks speak plain http: only, is not judged when it cannot aim at the agent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../rig/results/runResult.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { freePort } from './support/localHost.ts';
import { runRigForResults } from './support/rigCli.ts';
import { startSteeringAgent, type SteeringAgent } from './support/steeringCard.ts';

const SCENARIOS = [
  'agent-card',
  'activation',
  'cf1',
  'cf2',
  'cf3',
  'cf4',
  'cf5',
  'cf6',
  'cf7',
  'capacity',
  'acceptance-latency',
];
const REACH = 'the rig could not reach the agent: ';
const TLS = 'cannot connect: TLS handshake failed (EPROTO) — the URL names https:, the server there speaks plain http';
const CF7 = `CF-7 not judged: ${['cf1', 'cf2', 'cf3', 'cf4', 'cf5', 'cf6'].map((n) => `${n} errored`).join(', ')}`;

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
let https: SteeringAgent;
let closed: SteeringAgent;
let out = '';
beforeAll(async () => {
  agent = await inProcessAgent();
  https = await startSteeringAgent(agent.url, () => `${agent.url.replace('http:', 'https:')}/`);
  const port = await freePort(); // nothing listens there
  closed = await startSteeringAgent(agent.url, () => `http://127.0.0.1:${port}/`);
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-unreached-'));
});
afterAll(async () => {
  await Promise.all([https?.close(), closed?.close()]);
  await agent?.cleanup();
  if (out) rmSync(out, { recursive: true, force: true });
});

function run(target: string, label: string, extra: string[] = []) {
  const args = ['run', ...SCENARIOS, ...extra, '--target', target, '--follow-card-endpoint'];
  return runRigForResults([...args, '--profile', 'smoke', '--toxiproxy', 'none'], join(out, label), 60_000);
}

const verdicts = (r: RunResult) => Object.fromEntries(r.scenarios.map((s) => [s.name, [s.verdict, s.reason]]));

describe('an agent the rig cannot reach', () => {
  it('https: on a plain-HTTP server: every scenario errors naming the TLS handshake', async () => {
    const { results } = await run(https.url, 'tls', ['dos-answers']);
    const got = verdicts(results);
    for (const name of SCENARIOS.filter((n) => n !== 'cf7')) {
      expect(got[name]![0], name).toBe('errored');
      expect(got[name]![1], name).toMatch(new RegExp(`^${REACH}.*${TLS.replace(/[().:]/g, '\\$&')}`));
    }
    expect(got.cf7).toEqual(['errored', `${CF7}, so the suite has no verdict on the agent`]);
    expect(got['dos-answers']![0]).toBe('skipped');
    expect(got['dos-answers']![1]).toMatch(
      /the rig's attacks speak plain http: only.*the rig's limit, not the agent's/,
    );
    expect(results.scenarios.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => `${s.name}: ${c.name}`))).toEqual(
      [],
    );
  });

  it('a port nothing listens on: every scenario errors naming the refused connection', async () => {
    const { results } = await run(closed.url, 'refused', ['dos-answers']);
    const got = verdicts(results);
    for (const name of SCENARIOS.filter((n) => n !== 'cf7')) {
      expect(got[name]![0], name).toBe('errored');
      expect(got[name]![1], name).toMatch(new RegExp(`^${REACH}.*cannot connect \\(ECONNREFUSED\\)`));
    }
    // Loopback and plain http:, so the attacks can be aimed; their legitimate traffic never connects.
    for (const name of ['capacity', 'dos-answers']) {
      expect(got[name]![0], name).toBe('errored');
      expect(got[name]![1], name).toContain(`${REACH}the warm-up: none of`);
    }
    expect(got.cf7![0]).toBe('errored');
  });
});
