// An errored scenario's stack as results.json keeps it: frames only, the scenario's own first, the
// rig's next (at most eight), Node's internals and placeless frames left out. And its log, bounded:
// the first and the last half of LOG_LINES_KEPT, the lines between counted.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorStack } from '../rig/engine/errorStack.ts';
import { ScenarioLog } from '../rig/engine/scenarioLog.ts';
import { LOG_LINES_KEPT } from '../rig/results/runResult.ts';

const RIG = fileURLToPath(new URL('../rig/', import.meta.url));

describe('errorStack', () => {
  it("keeps the frames, the scenario's first, and drops what names no place", () => {
    const err = new Error('boom\nsecond line of the message');
    err.stack = [
      'Error: boom',
      'second line of the message',
      `    at TransportError.from (${RIG}client/transportError.ts:90:10)`,
      ...Array.from({ length: 12 }, (_, i) => `    at frame${i} (${RIG}client/a2aClient.ts:${i + 1}:5)`),
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at async Promise.all (index 0)',
      '    at async run (file:///home/me/my-scenarios/checkout.ts:42:7)',
      '    at async Object.run (/work/repo/scenarios/capacity.ts:10:3)',
      `    at async runOne (${RIG}engine/runScenarios.ts:124:5)`,
    ].join('\n');
    const frames = errorStack(err)!.split('\n');
    expect(frames.slice(0, 2)).toEqual([
      'at async run (/home/me/my-scenarios/checkout.ts:42:7)',
      'at async Object.run (/work/repo/scenarios/capacity.ts:10:3)',
    ]);
    expect(frames[2]).toBe(`at TransportError.from (${RIG}client/transportError.ts:90:10)`);
    expect(frames).toHaveLength(2 + 8);
    expect(frames.join('\n')).not.toMatch(/node:internal|Promise\.all|boom|second line/);
  });

  it('none for what is not an Error or has no frames', () => {
    expect(errorStack('a string')).toBeUndefined();
    expect(errorStack(Object.assign(new Error('x'), { stack: 'Error: x' }))).toBeUndefined();
    expect(errorStack(undefined)).toBeUndefined();
  });
});

describe('ScenarioLog', () => {
  const logged = (n: number, keep?: number) => {
    const log = new ScenarioLog(keep);
    for (let i = 0; i < n; i++) log.push({ t: i, line: `l${i}` });
    return log;
  };

  it('keeps everything up to the bound', () => {
    const log = logged(LOG_LINES_KEPT);
    expect(log.lines.map((l) => l.t)).toEqual(Array.from({ length: LOG_LINES_KEPT }, (_, i) => i));
    expect(log.dropped).toBe(0);
  });

  it('past it, the first half and the last half, in order, and how many between', () => {
    const log = logged(2_345);
    const half = LOG_LINES_KEPT / 2;
    expect(log.lines).toHaveLength(LOG_LINES_KEPT);
    expect(log.lines.slice(0, half).map((l) => l.t)).toEqual(Array.from({ length: half }, (_, i) => i));
    expect(log.lines.slice(half).map((l) => l.t)).toEqual(Array.from({ length: half }, (_, i) => 2_345 - half + i));
    expect(log.dropped).toBe(2_345 - LOG_LINES_KEPT);
  });

  it('an odd bound: one more line at the head', () => {
    const log = logged(10, 5);
    expect(log.lines.map((l) => l.line)).toEqual(['l0', 'l1', 'l2', 'l8', 'l9']);
    expect(log.dropped).toBe(5);
  });
});
