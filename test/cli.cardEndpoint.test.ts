// Issue 9 item 3: a card whose JSON-RPC endpoint is elsewhere must not steer the rig's traffic there
// unannounced. Another origin (127.0.0.2, loopback) is not contacted at all without
// --follow-card-endpoint: exit 2, one line, zero requests and zero upgrades at the recorder. With it,
// stderr, results.json and summary.md say where the traffic went, and the scenarios that need
// faults skip saying none can be injected there. Another path at the target's own origin
// (localhost:P/internal-admin) is called, but said first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';
import { startRecorder, startSteeringAgent, type Recorder, type SteeringAgent } from './support/steeringCard.ts';
import type { RunningAgent } from '../rig/agent/startAgent.ts';

let agent: RunningAgent & { cleanup: () => Promise<void> };
let recorder: Recorder;
let elsewhere: SteeringAgent;
let otherPath: SteeringAgent;
let out: string;
beforeAll(async () => {
  agent = await inProcessAgent();
  recorder = await startRecorder('127.0.0.2', agent.url);
  elsewhere = await startSteeringAgent(agent.url, () => `${recorder.url}/`);
  otherPath = await startSteeringAgent(agent.url, (own) => `${own.replace('127.0.0.1', 'localhost')}/internal-admin`);
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-card-endpoint-'));
});
afterAll(async () => {
  await Promise.all([recorder?.close(), elsewhere?.close(), otherPath?.close()]);
  await agent?.cleanup();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('a card whose JSON-RPC endpoint is not the --target', () => {
  it(
    'another host: the run stops before any traffic there, ' + 'with one line naming the endpoint and the flag, exit 2',
    async () => {
      const run = await runRig([
        'run',
        'agent-card',
        'resume-latency',
        '--target',
        elsewhere.url,
        '--out',
        join(out, 'refused'),
      ]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        `a2a-rig: the agent card at ${elsewhere.url}/.well-known/agent-card.json sends JSON-RPC to ` +
          `${recorder.url}/, which is not --target ${elsewhere.url}; the rig sends nothing to an endpoint you ` +
          'did not name: pass --follow-card-endpoint to run against it (no network faults can be injected there)',
      ]);
      expect(recorder.requests).toEqual([]);
      expect(elsewhere.others).toEqual([]);
    },
  );

  it(
    'another host with --follow-card-endpoint: ' +
      'said on stderr and in the results, faults scenarios skipped with the reason',
    async () => {
      const dir = join(out, 'followed');
      const run = await runRig([
        'run',
        'agent-card',
        'cf1',
        'resume-latency',
        '--target',
        elsewhere.url,
        '--follow-card-endpoint',
        '--out',
        dir,
      ]);
      expect(run.code, run.stderr).toBe(0);
      const note =
        `the agent card sends JSON-RPC to ${recorder.url}/, not --target ${elsewhere.url}; ` +
        `the rig's traffic goes there (--follow-card-endpoint), and no network faults can be injected there`;
      expect(run.stderr.split('\n')[0]).toBe(`a2a-rig: ${note}`);
      // The traffic did go there (JSON-RPC and the replay-plane probe), and nothing else to the target.
      expect(recorder.requests.filter((r) => r.startsWith('POST ')).length).toBeGreaterThan(0);
      expect(recorder.requests).toContain('UPGRADE /events');
      expect(elsewhere.others).toEqual([]);

      const { results, summary, junit } = readRunFiles(dir);
      expect(results.target).toMatchObject({ url: elsewhere.url, rpcUrl: `${recorder.url}/`, endpointNote: note });
      expect(results.proxy).toBeNull();
      const byName = Object.fromEntries(results.scenarios.map((s) => [s.name, s]));
      expect(byName['agent-card'].verdict, byName['agent-card'].reason).toBe('passed');
      expect(byName.cf1.verdict, byName.cf1.reason).toBe('passed');
      expect(byName['resume-latency'].verdict).toBe('skipped');
      expect(byName['resume-latency'].reason).toContain(
        `network faults are unavailable: the card's JSON-RPC endpoint ${recorder.url}/ ` +
          `is not at --target ${elsewhere.url}, so no fault proxy can sit in front of it`,
      );
      expect(junit.find((c) => c.name === 'resume-latency')?.skipped).toContain(
        'no fault proxy can sit in front of it',
      );
      expect(summary).toContain('**Endpoint:** the agent card sends JSON-RPC to');
      expect(summary).toContain(recorder.url.replace('http://', ''));
    },
  );

  it('another path at the same origin: called, but said first on stderr and in the results', async () => {
    const dir = join(out, 'other-path');
    const endpoint = `${otherPath.url.replace('127.0.0.1', 'localhost')}/internal-admin`;
    const run = await runRig(['run', 'agent-card', '--target', otherPath.url, '--toxiproxy', 'none', '--out', dir]);
    const note =
      `the agent card sends JSON-RPC to ${endpoint}, ` +
      `another path than --target ${otherPath.url}; the rig's traffic goes there`;
    expect(run.stderr.split('\n')[0], run.stderr).toBe(`a2a-rig: ${note}`);
    // The card server answers 404 there: agent-card fails, which is the truth about that endpoint.
    expect(run.code, run.stderr).toBe(1);
    expect(otherPath.others).toContain('POST /internal-admin');
    const { results, summary } = readRunFiles(dir);
    expect(results.target).toMatchObject({ rpcUrl: `${otherPath.url}/internal-admin`, endpointNote: note });
    expect(summary).toContain('**Endpoint:** the agent card sends JSON-RPC to');
    expect(summary).toContain('internal-admin');
  });
});
