// What a run shows while it runs, on stderr. On a terminal (and not under CI): a cli-progress bar
// over the scenarios with the current one and its elapsed time, and a line above the bar for each
// scenario that did not pass. Otherwise (a pipe, a CI log): plain lines as each scenario starts and
// ends, and a "still running" line every `heartbeatMs`, so a long scenario never looks hung.
// A reason may quote the agent: every line goes through printableLine (terminalText.ts).
import cliProgress from 'cli-progress';
import { VERDICTS, type ScenarioResult } from './runResult.ts';
import { printableLine } from './terminalText.ts';

/** What the engine reports as scenarios start and end (runScenarios' onProgress). */
export interface ProgressEvent {
  phase: 'start' | 'end';
  scenario: string;
  index: number;
  total: number;
  result?: ScenarioResult;
}

export type ProgressMode = 'bar' | 'lines';

/** A bar only on a TTY outside CI (CI=true, or any CI value but "" / "false" / "0"). */
export function progressMode(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): ProgressMode {
  const ci = env.CI !== undefined && !['', 'false', '0'].includes(env.CI.toLowerCase());
  return isTTY && !ci ? 'bar' : 'lines';
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const position = (index: number, total: number) => `[${index + 1}/${total}]`;

export function startLine(e: ProgressEvent): string {
  return printableLine(`${position(e.index, e.total)} ${e.scenario} …`);
}

export function endLine(e: ProgressEvent): string {
  const r = e.result;
  if (!r) return printableLine(`${position(e.index, e.total)} ${e.scenario}: ended`);
  return printableLine(`${position(e.index, e.total)} ${e.scenario}: ${r.verdict}${r.reason ? ` — ${r.reason}` : ''} (${seconds(r.durationMs)})`);
}

export function stillRunningLine(e: ProgressEvent, elapsedMs: number): string {
  return printableLine(`${position(e.index, e.total)} ${e.scenario}: still running (${seconds(elapsedMs)})`);
}

/** "12 passed, 1 failed" over the results so far. */
export function tally(results: ScenarioResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  return VERDICTS.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`).join(', ');
}

export interface ProgressOutputOptions {
  stream?: NodeJS.WriteStream;
  mode?: ProgressMode;
  /** Lines mode: how often a running scenario says it still runs. */
  heartbeatMs?: number;
}

export class ProgressOutput {
  private readonly stream: NodeJS.WriteStream;
  readonly mode: ProgressMode;
  private readonly heartbeatMs: number;
  private readonly results: ScenarioResult[] = [];
  private timer: NodeJS.Timeout | undefined;
  private multibar: cliProgress.MultiBar | undefined;
  private bar: cliProgress.SingleBar | undefined;

  constructor(options: ProgressOutputOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.mode = options.mode ?? progressMode(this.stream.isTTY);
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
  }

  /** Hand this to runScenarios as onProgress. */
  readonly onProgress = (e: ProgressEvent): void => {
    if (e.phase === 'start') this.started(e);
    else this.ended(e);
  };

  private started(e: ProgressEvent): void {
    clearInterval(this.timer);
    const startedAt = performance.now();
    if (this.mode === 'lines') {
      this.stream.write(`${startLine(e)}\n`);
      this.timer = setInterval(() => this.stream.write(`${stillRunningLine(e, performance.now() - startedAt)}\n`), this.heartbeatMs).unref();
      return;
    }
    if (!this.bar) {
      this.multibar = new cliProgress.MultiBar({
        stream: this.stream,
        format: ' {bar} {value}/{total} scenarios | {scenario} {elapsed} | {tally}',
        barsize: 24,
        hideCursor: true,
        clearOnComplete: true,
        autopadding: true,
        fps: 5,
      });
      this.bar = this.multibar.create(e.total, e.index, { scenario: printableLine(e.scenario), elapsed: '', tally: '' });
    }
    this.bar.update(e.index, { scenario: printableLine(e.scenario), elapsed: '0.0 s' });
    this.timer = setInterval(() => this.bar?.update({ elapsed: seconds(performance.now() - startedAt) }), 500).unref();
  }

  private ended(e: ProgressEvent): void {
    clearInterval(this.timer);
    if (e.result) this.results.push(e.result);
    if (this.mode === 'lines') {
      this.stream.write(`${endLine(e)}\n`);
      return;
    }
    // On the bar, only what needs a look stays on screen; every verdict is in the summary after.
    if (e.result && e.result.verdict !== 'passed') this.multibar?.log(`${endLine(e)}\n`);
    this.bar?.update(e.index + 1, { scenario: '', elapsed: '', tally: tally(this.results) });
  }

  /** Stops the bar and timers; call before printing anything else (and on failure). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.multibar?.stop();
    this.multibar = undefined;
    this.bar = undefined;
  }
}
