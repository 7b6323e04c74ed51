// The real CLI against a hostile agent (test/support/hostileStreams.ts) that floods streams and
// sockets with events far heavier once parsed than on the wire, sends frames past the frame bound,
// or nests what it sends 100,000 levels deep. Every run must end within its scenario's budget plus
// a few seconds, exit 1 or 2 with a one-line reason naming what the agent sent and the bound, keep
// the rig's peak resident memory (VmHWM, written by test/support/peakRss.mjs as the CLI exits)
// under the documented 512 MB ceiling, and print no stack trace.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHostileAgent, type HostileAgent, type HostileMode } from './support/hostileStreams.ts';
import { runRig } from './support/rigCli.ts';

const preload = new URL('./support/peakRss.mjs', import.meta.url).pathname;
/** The rig's documented memory ceiling against any agent. */
const PEAK_RSS_CEILING_KB = 512 * 1024;
/** Process start (tsx), discovery and writing the results, on a loaded two-core machine. */
const SLACK_MS = 15_000;

interface Case {
  mode: HostileMode;
  scenario: string;
  budgetMs: number;
  codes: number[];
  /** The one line that must say what the agent sent and which bound it broke. */
  reason: RegExp;
}

const CASES: Case[] = [
  {
    mode: 'sse-flood',
    scenario: 'cf1',
    budgetMs: 20_000,
    codes: [1],
    reason:
      // eslint-disable-next-line max-len -- the reason as printed, as one pattern
      /SubscribeToTask stream from http:\/\/127\.0\.0\.1:\d+\/: its events weigh more than 32 MiB once parsed \(the rig keeps at most 32 MiB per connection\)/,
  },
  {
    mode: 'replay-flood',
    scenario: 'cf6',
    budgetMs: 30_000,
    codes: [1],
    reason:
      // eslint-disable-next-line max-len -- the reason as printed, as one pattern
      /replay socket of http:\/\/127\.0\.0\.1:\d+ for task [\w-]+: frame \d+: its events weigh more than 32 MiB once parsed/,
  },
  {
    mode: 'huge-frames',
    scenario: 'cf6',
    budgetMs: 30_000,
    codes: [1],
    reason: /the agent sent a frame over 1048576 bytes \(the rig's bound on one frame\)/,
  },
  {
    mode: 'deep-id',
    scenario: 'cf6',
    budgetMs: 30_000,
    codes: [1],
    reason:
      // eslint-disable-next-line max-len -- the reason as printed, as one pattern
      /POST http:\/\/127\.0\.0\.1:\d+\/ \(SendMessage\): the agent's reply nests 100001 levels deep; the rig reads at most 512/,
  },
  {
    mode: 'deep-metadata',
    scenario: 'cf6',
    budgetMs: 30_000,
    codes: [1],
    reason: /the agent's reply nests 10000\d levels deep; the rig reads at most 512/,
  },
  {
    mode: 'deep-card',
    scenario: 'cf6',
    budgetMs: 30_000,
    codes: [2],
    reason: /agent-card\.json: the agent's document nests 10000\d levels deep; the rig reads at most 512/,
  },
];

let agent: HostileAgent | undefined;
let dir: string | undefined;
afterEach(async () => {
  await agent?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  agent = dir = undefined;
});

describe('the rig against a hostile agent: bounded memory, depth and time', () => {
  for (const c of CASES) {
    it(
      `${c.mode}: ${c.scenario} ends within its budget, ` +
        `exit ${c.codes.join('/')}, peak RSS < 512 MB, one line naming the bound`,
      async () => {
        agent = await startHostileAgent(c.mode);
        dir = mkdtempSync(join(tmpdir(), 'rig-hostile-'));
        const peakFile = join(dir, 'peak-rss-kb');
        const started = performance.now();
        const run = await runRig(
          ['run', c.scenario, '--target', agent.url, '--toxiproxy', 'none', '--out', join(dir, 'out')],
          c.budgetMs + 2 * SLACK_MS,
          {
            NODE_OPTIONS: `--import ${preload}`,
            RIG_PEAK_RSS_FILE: peakFile,
            CI: 'true',
          },
        );
        const elapsedMs = performance.now() - started;
        const output = `${run.stdout}\n${run.stderr}`;
        const peakKb = Number(readFileSync(peakFile, 'utf8'));

        expect(run.code, output).toSatisfy((code: number) => c.codes.includes(code));
        expect(elapsedMs, output).toBeLessThan(c.budgetMs + SLACK_MS);
        expect(peakKb, `peak RSS ${Math.round(peakKb / 1024)} MB`).toBeLessThan(PEAK_RSS_CEILING_KB);
        const line = output.split('\n').find((l) => c.reason.test(l));
        expect(line, output).toBeDefined();
        expect(output).not.toMatch(/Maximum call stack|RangeError|\n\s+at .+:\d+:\d+\)?\n/);
      },
    );
  }
});
