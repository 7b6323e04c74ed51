// --shard: worker i of N given outright, or N with the index from the orchestrator's environment
// (Kubernetes' JOB_COMPLETION_INDEX from 0, Swarm's task slot from 1), every bad form refused.
import { describe, expect, it } from 'vitest';
import { parseShard } from '../rig/results/shardIdentity.ts';

describe('parseShard', () => {
  it('takes i/N as given', () => {
    expect(parseShard('0/3', {})).toEqual({ index: 0, count: 3 });
    expect(parseShard('2/3', {})).toEqual({ index: 2, count: 3 });
  });

  it('takes the index of N from a Kubernetes Indexed Job (0-based) or a Swarm task slot (1-based)', () => {
    expect(parseShard('3', { JOB_COMPLETION_INDEX: '2' })).toEqual({ index: 2, count: 3 });
    expect(parseShard('3', { A2A_RIG_TASK_SLOT: '1' })).toEqual({ index: 0, count: 3 });
    expect(parseShard('3', { A2A_RIG_TASK_SLOT: '3', JOB_COMPLETION_INDEX: '2' })).toEqual({ index: 2, count: 3 });
  });

  it('refuses what cannot name one worker, and says why', () => {
    expect(() => parseShard('3', {})).toThrow(/JOB_COMPLETION_INDEX .* or A2A_RIG_TASK_SLOT .*neither is set/);
    expect(() => parseShard('3', { A2A_RIG_TASK_SLOT: '4' })).toThrow(/worker 3, outside 0..2/);
    expect(() => parseShard('3', { A2A_RIG_TASK_SLOT: '0' })).toThrow(/worker -1, outside 0..2/);
    expect(() => parseShard('3', { A2A_RIG_TASK_SLOT: '1', JOB_COMPLETION_INDEX: '2' })).toThrow(/two different/);
    expect(() => parseShard('3/3', {})).toThrow(/worker 3 does not exist in 0..2/);
    expect(() => parseShard('0/0', {})).toThrow(/N must be 1..1024/);
    expect(() => parseShard('1/x', {})).toThrow(/whole number, got "x"/);
    expect(() => parseShard('-1/3', {})).toThrow(/whole number/);
    expect(() => parseShard('1/2/3', {})).toThrow(/i\/N/);
    expect(() => parseShard('', {})).toThrow(/i\/N/);
  });
});
