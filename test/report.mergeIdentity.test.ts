// Merging refuses runs of different agents or rigs, naming each side's file, unless forced (then
// it records what differed and each source); what the merge keeps of its sources (load per core,
// record declarations); and the card digest that tells agents apart.
import { describe, expect, it } from 'vitest';
import { UserError } from '../rig/protocol/userError.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { cardDigest } from '../rig/results/runIdentity.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { mergeInputs, run, samples, scenario } from './support/runResultFixture.ts';

const machineC = samples(10, 1, 5, 23); // a tiny one at the bottom of the range

describe('mergeRuns refuses runs of different agents or rigs', () => {
  const load = () => [scenario('load', { latencies: { resume_latency: machineC }, counters: { answers: 10 } })];
  const withTarget = (runId: string, target: Partial<RunResult['target']>, rigVersion = '0.1.0') => {
    const r = run(load(), runId);
    return {
      ...r,
      rig: { ...r.rig, version: rigVersion },
      target: {
        ...r.target,
        agentName: 'agent',
        agentVersion: '1.0.0',
        generation: '1.0',
        cardDigest: 'sha256:aa',
        ...target,
      },
    };
  };

  it.each([
    [
      'target.agentVersion',
      { agentVersion: '1.1.0' },
      '0.1.0',
      '"1.0.0" in /results/0/results.json; "1.1.0" in /results/1/results.json',
    ],
    [
      'target.agentName',
      { agentName: 'other' },
      '0.1.0',
      '"agent" in /results/0/results.json; "other" in /results/1/results.json',
    ],
    [
      'target.generation',
      { generation: '0.3' },
      '0.1.0',
      '"1.0" in /results/0/results.json; "0.3" in /results/1/results.json',
    ],
    [
      'target.cardDigest',
      { cardDigest: 'sha256:bb' },
      '0.1.0',
      '"sha256:aa" in /results/0/results.json; "sha256:bb" in /results/1/results.json',
    ],
    [
      'target.agentFaults',
      { agentFaults: ['slow-resume'] },
      '0.1.0',
      '(none) in /results/0/results.json; "slow-resume" in /results/1/results.json',
    ],
    ['rig.version', {}, '0.2.0', '"0.1.0" in /results/0/results.json; "0.2.0" in /results/1/results.json'],
  ])('%s: one line naming the field, the values and the files', (field, target, rigVersion, values) => {
    const merge = () => mergeRuns(mergeInputs(withTarget('a', {}), withTarget('b', target, rigVersion)), 'm');
    expect(merge).toThrow(UserError);
    expect(merge).toThrow(
      `cannot merge runs of different agents or rigs: ${field}: ${values}; pass --force to merge them anyway`,
    );
  });

  it('compares the URL of a --target, not the fresh port of an embedded agent', () => {
    expect(() =>
      mergeRuns(
        mergeInputs(withTarget('a', { url: 'http://127.0.0.1:1' }), withTarget('b', { url: 'http://127.0.0.1:2' })),
        'm',
      ),
    ).not.toThrow();
    const url = (u: string) => withTarget(u, { kind: 'url', url: u });
    expect(() => mergeRuns(mergeInputs(url('http://a:1'), url('http://b:1')), 'm')).toThrow(
      'target.url: "http://a:1" in /results/0/results.json; "http://b:1" in /results/1/results.json',
    );
  });

  it("merges when forced, recording what differed and each source's target and rig", () => {
    const merged = mergeRuns(
      mergeInputs(withTarget('a', {}), withTarget('b', { agentVersion: '1.1.0', cardDigest: 'sha256:bb' })),
      'm',
      { force: true },
    );
    expect(merged.mergeForced).toEqual({
      differences: [
        'target.agentVersion: "1.0.0" in /results/0/results.json; "1.1.0" in /results/1/results.json',
        'target.cardDigest: "sha256:aa" in /results/0/results.json; "sha256:bb" in /results/1/results.json',
      ],
    });
    expect(merged.mergedFrom!.map((m) => [m.target?.agentVersion, m.rigVersion])).toEqual([
      ['1.0.0', '0.1.0'],
      ['1.1.0', '0.1.0'],
    ]);
    expect(htmlReport(merged)).toContain(
      '<dt>forced merge: runs differ</dt><dd>target.agentVersion: &quot;1.0.0&quot; in /results/0/results.json',
    );
    expect(mergeRuns(mergeInputs(withTarget('a', {}), withTarget('b', {})), 'm')).not.toHaveProperty('mergeForced');
  });

  it("records the busiest source's load per core, for compare's overload guard", () => {
    const loaded = (id: string, loadPerCore: number) => ({
      ...withTarget(id, {}),
      rig: { ...withTarget(id, {}).rig, loadPerCore },
    });
    expect(mergeRuns(mergeInputs(loaded('a', 0.3), loaded('b', 2.5)), 'm').rig.loadPerCore).toBe(2.5);
  });

  it("keeps the scenarios' declarations of what they record (compare reads them)", () => {
    const records = { latencies: ['resume_latency'], counters: { answers: 'tally' as const } };
    const part = (id: string) => run([scenario('load', { counters: { answers: 1 }, records })], id);
    expect(mergeRuns(mergeInputs(part('a'), part('b')), 'm').scenarios[0]!.records).toEqual(records);
  });
});

describe('cardDigest', () => {
  const card = {
    name: 'agent',
    version: '1',
    url: 'http://127.0.0.1:1',
    supportedInterfaces: [{ url: 'http://127.0.0.1:1', protocolBinding: 'JSONRPC' }],
    capabilities: { extensions: [{ uri: 'x', required: false }] },
  };

  it('ignores where the agent listens and key order, and sees any other change', () => {
    const moved = {
      capabilities: card.capabilities,
      supportedInterfaces: [{ protocolBinding: 'JSONRPC', url: 'http://127.0.0.1:2' }],
      version: '1',
      name: 'agent',
      url: 'http://127.0.0.1:2',
    };
    expect(cardDigest(moved)).toBe(cardDigest(card));
    expect(cardDigest({ ...card, capabilities: { extensions: [{ uri: 'x', required: true }] } })).not.toBe(
      cardDigest(card),
    );
    expect(cardDigest(card)).toMatch(/^sha256:[0-9a-f]{16}$/);
  });
});
