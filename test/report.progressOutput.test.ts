// Progress output: plain lines (pipes, CI) and the cli-progress bar (a terminal), with the scenarios'
// log lines and their live traffic (synthetic events, as the engine emits them).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  endLine,
  liveText,
  logLine,
  ProgressOutput,
  progressMode,
  startLine,
  stillRunningLine,
  tally,
  wrapToColumns,
} from '../rig/report/terminal/progressOutput.ts';
import type { LiveTraffic, ScenarioPosition } from '../rig/results/runObserver.ts';
import type { ScenarioResult } from '../rig/results/runResult.ts';

function result(name: string, verdict: ScenarioResult['verdict'], reason?: string): ScenarioResult {
  return {
    name,
    description: '',
    tags: [],
    verdict,
    ...(reason ? { reason } : {}),
    durationMs: 1234,
    params: {},
    checks: [],
    metrics: {},
    counters: {},
  };
}

function capture(isTTY: boolean): {
  stream: NodeJS.WriteStream;
  text: () => string;
  next: (pattern: RegExp, timeoutMs: number) => Promise<string>;
} {
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
      const timer = setTimeout(
        () => reject(new Error(`no ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(text)}`)),
        timeoutMs,
      );
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
  const start: ScenarioPosition = { scenario: 'cf4', index: 2, total: 15 };

  it('formats start, end and heartbeat lines', () => {
    expect(startLine(start)).toBe('[3/15] cf4 …');
    expect(endLine({ ...start, result: result('cf4', 'failed', 'p95 too slow') })).toBe(
      '[3/15] cf4: failed — p95 too slow (1.2 s)',
    );
    expect(endLine({ ...start, result: result('cf4', 'passed') })).toBe('[3/15] cf4: passed (1.2 s)');
    expect(stillRunningLine(start, 30_049)).toBe('[3/15] cf4: still running (30.0 s)');
    expect(tally([result('a', 'passed'), result('b', 'skipped'), result('c', 'passed'), result('d', 'failed')])).toBe(
      '2 passed, 1 failed, 1 skipped',
    );
  });

  it('writes a line per start and end, and heartbeats while a scenario runs', async () => {
    const out = capture(false);
    const progress = new ProgressOutput({ stream: out.stream, heartbeatMs: 20 });
    expect(progress.mode).toBe('lines');
    progress.onScenarioStart(start);
    await out.next(/still running/, 5_000);
    progress.onScenarioEnd({ ...start, result: result('cf4', 'passed') });
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
    progress.onScenarioStart({ scenario: 'cf1', index: 0, total: 2 });
    await out.next(/0\/2 \| cf1/, 5_000);
    progress.onScenarioEnd({ scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'failed', 'no echo') });
    progress.onScenarioStart({ scenario: 'cf2', index: 1, total: 2 });
    await out.next(/1\/2 1 failed \| cf2 [\d.]+ s/, 5_000);
    progress.onScenarioEnd({ scenario: 'cf2', index: 1, total: 2, result: result('cf2', 'passed') });
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
    progress.onScenarioStart({ scenario: 'cf1', index: 0, total: 2 });
    progress.onScenarioEnd({ scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'skipped', hostile) });
    progress.stop();
    expect(out.text()).toBe(
      '[1/2] cf1 …\n[1/2] cf1: skipped — \\u001b[31mRED\\u0007\\u000dforged\\u000a[2/2] cf2: passed\\u202e (1.2 s)\n',
    );
  });

  it('bar: the line logged above the bar carries no raw control from the agent', async () => {
    const out = capture(true);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'bar' });
    progress.onScenarioStart({ scenario: 'cf1', index: 0, total: 2 });
    await out.next(/0\/2 \| cf1/, 5_000);
    progress.onScenarioEnd({ scenario: 'cf1', index: 0, total: 2, result: result('cf1', 'failed', hostile) });
    // The bar writes a logged line with its next redraw.
    progress.onScenarioStart({ scenario: 'cf2', index: 1, total: 2 });
    await out.next(/1\/2 1 failed \| cf2 [\d.]+ s/, 5_000);
    progress.stop();
    // The bar draws with its own escape sequences; the agent's must not be among them.
    expect(out.text()).toContain(
      '[1/2] cf1: failed — \\u001b[31mRED\\u0007\\u000dforged\\u000a[2/2] cf2: passed\\u202e (1.2 s)',
    );
    expect(out.text()).not.toContain('\u001b[31mRED');
    // eslint-disable-next-line no-control-regex -- the BEL the agent sent must not reach the terminal raw
    expect(out.text()).not.toMatch(/[\u0007\u202e]/);
  });
});

describe('log lines and live traffic', () => {
  const at = { scenario: 'capacity', index: 0, total: 2 } as const;
  const live: LiveTraffic = {
    ratePerS: 120,
    errorsPerS: 1,
    inFlight: 8,
    p50Ms: 2.5,
    p95Ms: 4.214,
    offeredPerS: 40,
    requests: 960,
    errors: 3,
  };

  it('formats the last second and a log line', () => {
    expect(liveText(live)).toBe('120 req/s · p95 4.21 ms · in-flight 8 · errors 3 · offered 40/s');
    expect(liveText({ ratePerS: 0, errorsPerS: 0, inFlight: 0, requests: 0, errors: 0 })).toBe(
      '0 req/s · p95 – · in-flight 0 · errors 0',
    );
    expect(logLine({ scenario: 'capacity', line: '5/s: 10/10 ok' })).toBe('  [capacity] 5/s: 10/10 ok');
    expect(stillRunningLine(at, 30_000, { traffic: live, ageMs: 900 })).toBe(
      '[1/2] capacity: still running (30.0 s) · 120 req/s · p95 4.21 ms · in-flight 8 · errors 3 · offered 40/s',
    );
    // Figures from seconds ago are not "the last second": only the totals so far.
    expect(stillRunningLine(at, 30_000, { traffic: live, ageMs: 10_000 })).toBe(
      '[1/2] capacity: still running (30.0 s) · 960 requests, 3 errors so far',
    );
  });

  it("wraps a line for the bar, which turns the terminal's wrapping off", () => {
    const line = `  [capacity] ${'x'.repeat(100)}`;
    const pieces = wrapToColumns(line, 40);
    expect(pieces.every((p) => [...p].length <= 40)).toBe(true);
    expect(pieces.map((p, i) => (i === 0 ? p : p.slice(6))).join('')).toBe(line);
    expect(wrapToColumns('short', 40)).toEqual(['short']);
    // At a space when there is one past the first third of the piece.
    expect(
      wrapToColumns('[1/2] cf3: failed — accepted (HTTP 200, code undefined, 0 validation_errors) (0.5 s)', 40),
    ).toEqual([
      '[1/2] cf3: failed — accepted (HTTP 200,',
      '      code undefined, 0',
      '      validation_errors) (0.5 s)',
    ]);
  });

  it('lines: each log line as "  [scenario] line", and the heartbeat carries the last traffic figures', async () => {
    const out = capture(false);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'lines', heartbeatMs: 20 });
    progress.onScenarioStart(at);
    progress.onLog({ ...at, t: 2100, line: '5/s: 10/10 ok, p95 3.10 ms' });
    // Traffic of another scenario (late, after its end) is not this one's.
    progress.onTraffic({ scenario: 'other', index: 1, total: 2, live: { ...live, ratePerS: 999 } });
    progress.onTraffic({ ...at, live });
    await out.next(
      /still running \([\d.]+ s\) · 120 req\/s · p95 4\.21 ms · in-flight 8 · errors 3 · offered 40\/s\n/,
      5_000,
    );
    progress.onScenarioEnd({ ...at, result: result('capacity', 'passed') });
    progress.stop();
    const lines = out.text().trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['[1/2] capacity …', '  [capacity] 5/s: 10/10 ok, p95 3.10 ms']);
    expect(out.text()).not.toContain('999 req/s');
    expect(lines.at(-1)).toBe('[1/2] capacity: passed (1.2 s)');
  });

  it('lines: a log line quoting the agent is one line, its controls shown', () => {
    const out = capture(false);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'lines' });
    progress.onScenarioStart(at);
    progress.onLog({ ...at, t: 5, line: 'agent said \u001b[2J\rgone\nforged line' });
    progress.stop();
    expect(out.text()).toBe('[1/2] capacity …\n  [capacity] agent said \\u001b[2J\\u000dgone\\u000aforged line\n');
  });

  it('bar: the live figures on the bar line, log lines above it, the bar redrawn below them', async () => {
    const out = capture(true);
    const progress = new ProgressOutput({ stream: out.stream, mode: 'bar' });
    progress.onScenarioStart(at);
    await out.next(/0\/2 \| capacity/, 5_000);
    progress.onTraffic({ ...at, live });
    await out.next(/\| capacity [\d.]+ s · 120 req\/s · p95 4\.21 ms · in-flight 8 · errors 3 · offered 40\/s/, 5_000);
    progress.onLog({ ...at, t: 2100, line: `5/s: 10/10 ok \u001b[31mred ${'y'.repeat(150)}` });
    await out.next(/\[capacity\] 5\/s/, 5_000);
    const logged = out.text().lastIndexOf('[capacity] 5/s');
    // The bar is drawn again after the logged line: it stays at the bottom.
    await out.next(new RegExp(`[\\s\\S]{${logged}}[\\s\\S]*0\\/2 \\| capacity`), 5_000);
    progress.onScenarioEnd({ ...at, result: result('capacity', 'passed') });
    progress.onScenarioStart({ scenario: 'next', index: 1, total: 2 });
    await out.next(/1\/2 1 passed \| next/, 5_000);
    const after = out.text().slice(out.text().lastIndexOf('1/2 1 passed | next'));
    progress.stop();
    // The log line: escaped, and wrapped to the stream's 120 columns (the bar cuts lines at the edge).
    expect(out.text()).toContain('  [capacity] 5/s: 10/10 ok \\u001b[31mred yyy');
    expect(out.text()).not.toContain('\u001b[31mred');
    // A row as the terminal shows it: what follows the bar's last cursor or erase sequence on it.
    const rows = out
      .text()
      .split('\n')
      // eslint-disable-next-line no-control-regex -- ESC starts the bar's cursor and erase sequences
      .map((l) => l.replace(/^[\s\S]*\u001b\[[0-9;?]*[A-Za-z]/, ''));
    const logRows = rows.filter((l) => /\[capacity\] 5\/s|^ {6}y+$/.test(l));
    expect(logRows.length).toBeGreaterThan(1);
    expect(
      logRows.every((l) => [...l].length <= 120),
      JSON.stringify(logRows),
    ).toBe(true);
    // The next scenario's bar does not show the last one's figures.
    expect(after).not.toContain('req/s');
  });
});
