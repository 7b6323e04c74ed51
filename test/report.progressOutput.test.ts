// Progress output: plain lines (pipes, CI) and the cli-progress bar (a terminal).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { endLine, ProgressOutput, progressMode, startLine, stillRunningLine, tally, type ProgressEvent } from '../rig/report/progressOutput.ts';
import type { ScenarioResult } from '../rig/report/runResult.ts';

function result(name: string, verdict: ScenarioResult['verdict'], reason?: string): ScenarioResult {
  return { name, description: '', tags: [], verdict, ...(reason ? { reason } : {}), durationMs: 1234, params: {}, checks: [], metrics: {}, counters: {} };
}

function capture(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string; next: (pattern: RegExp, timeoutMs: number) => Promise<string> } {
  const pass = new PassThrough();
  let text = '';
  const waiters: Array<() => void> = [];
  pass.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    waiters.splice(0).forEach((w) => w());
  });
  Object.assign(pass, { isTTY, columns: 120 });
  const next = (pattern: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(text)}`)), timeoutMs);
      const check = () => {
        const m = pattern.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        } else waiters.push(check);
      };
      check();
    });
  return { stream: pass as unknown as NodeJS.WriteStream, text: () => text, next };
}

describe('progress mode', () => {
  it('draws a bar only on a terminal outside CI', () => {
    expect(progressMode(true, {})).toBe('bar');
    expect(progressMode(false, {})).toBe('lines');
    expect(progressMode(undefined, {})).toBe('lines');
    expect(progressMode(true, { CI: 'true' })).toBe('lines');
    expect(progressMode(true, { CI: '1' })).toBe('lines');
    expect(progressMode(true, { CI: 'false' })).toBe('bar');
  });
});

describe('plain lines', () => {
  const start: ProgressEvent = { phase: 'start', scenario: 'cf4', index: 2, total: 15 };

  it('formats start, end and heartbeat lines', () => {
    expect(startLine(start)).toBe('[3/15] cf4 …');
    expect(endLine({ ...start, phase: 'end', result: result('cf4', 'failed', 'p95 too slow') })).toBe('[3/15] cf4: failed — p95 too slow (1.2 s)');
    expect(endLine({ ...start, phase: 'end', result: result('cf4', 'passed') })).toBe('[3/15] cf4: passed (1.2 s)');
    expect(stillRunningLine(start, 30_049)).toBe('[3/15] cf4: still running (30.0 s)');
    expect(tally([result('a', 'passed'), result('b', 'skipped'), result('c', 'passed'), result('d', 'failed')])).toBe('2 passed, 1 failed, 1 skipped');
  });

  it('writes a line per start and end, and heartbeats while a scenario runs', async () => {
    const out = capture(false);
    const progress = new ProgressOutput({ stream: out.stream, heartbeatMs: 20 });
    expect(progress.mode).toBe('lines');
    progress.onProgress(start);
    await out.next(/still running/, 5_000);
    progress.onProgress({ ...start, phase: 'end', result: result('cf4', 'passed') });
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toBe('[3/15] cf4 …');
    expect(lines.at(-1)).toBe('[3/15] cf4: passed (1.2 s)');
    expect(lines.slice(1, -1).every((l) => /^\[3\/15\] cf4: still running \(\d+\.\d s\)$/.test(l))).toBe(true);
    // No heartbeat after the end: the next write is only what we write.
    const length = out.text().length;
    await new Promise((r) => setTimeout(r, 80));
    expect(out.text().length).toBe(length);
    progress.stop();
  });
});

describe('the bar', () => {
  it('counts scenarios on a terminal and logs the ones that did not pass above it', async () => {
    const out = capture(true);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'bar' });
    progress.onProgress({ phase: 'start', scenario: 'cf1', index: 0, total: 2 });
    await out.next(/0\/2 scenarios \| cf1/, 5_000);
    progress.onProgress({ phase: 'end', scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'failed', 'no echo') });
    progress.onProgress({ phase: 'start', scenario: 'cf2', index: 1, total: 2 });
    await out.next(/1\/2 scenarios \| cf2 [\d.]+ s \| 1 failed/, 5_000);
    progress.onProgress({ phase: 'end', scenario: 'cf2', index: 1, total: 2, result: result('cf2', 'passed') });
    progress.stop();
    expect(out.text()).toContain('[1/2] cf1: failed — no echo (1.2 s)');
    expect(out.text()).not.toContain('cf2: passed');
  });
});

describe('agent strings in progress output', () => {
  const hostile = '\u001b[31mRED\u0007\rforged\n[2/2] cf2: passed\u202e';

  it('lines: a reason is shown escaped, on its own line, never raw', () => {
    const out = capture(false);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'lines' });
    progress.onProgress({ phase: 'start', scenario: 'cf1', index: 0, total: 2 });
    progress.onProgress({ phase: 'end', scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'skipped', hostile) });
    progress.stop();
    expect(out.text()).toBe('[1/2] cf1 …\n[1/2] cf1: skipped — \\u001b[31mRED\\u0007\\u000dforged\\u000a[2/2] cf2: passed\\u202e (1.2 s)\n');
  });

  it('bar: the line logged above the bar carries no raw control from the agent', async () => {
    const out = capture(true);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'bar' });
    progress.onProgress({ phase: 'start', scenario: 'cf1', index: 0, total: 2 });
    await out.next(/0\/2 scenarios \| cf1/, 5_000);
    progress.onProgress({ phase: 'end', scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'failed', hostile) });
    // The bar writes a logged line with its next redraw.
    progress.onProgress({ phase: 'start', scenario: 'cf2', index: 1, total: 2 });
    await out.next(/1\/2 scenarios \| cf2 [\d.]+ s \| 1 failed/, 5_000);
    progress.stop();
    // The bar draws with its own escape sequences; the agent's must not be among them.
    expect(out.text()).toContain('[1/2] cf1: failed — \\u001b[31mRED\\u0007\\u000dforged\\u000a[2/2] cf2: passed\\u202e (1.2 s)');
    expect(out.text()).not.toContain('\u001b[31mRED');
    expect(out.text()).not.toMatch(/[\u0007\u202e]/);
  });
});
