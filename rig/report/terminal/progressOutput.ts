// What a run shows while it runs, on stderr. On a terminal (and not under CI): a cli-progress bar
// over the scenarios with the current one, its elapsed time and, while it sends traffic, what the
// last second looked like (requests/s, p95, in flight, errors); above the bar, the scenario's
// ctx.log lines and a line for each scenario that did not pass. Otherwise (a pipe, a CI log): plain
// lines as each scenario starts, logs and ends, and a "still running" line every `heartbeatMs` with
// the last traffic figures, so a long scenario never looks hung.
// A reason or a log line may quote the agent: every line goes through printableLine (terminalText.ts).
import { warningsCount } from '../../results/checkResult.ts';
import cliProgress from 'cli-progress';
import type {
  LiveTraffic,
  RunObserver,
  ScenarioEnd,
  ScenarioLogLine,
  ScenarioPosition,
  ScenarioTraffic,
} from '../../results/runObserver.ts';
import { VERDICTS, type ScenarioResult } from '../../results/runResult.ts';
import { printableLine } from './terminalText.ts';
import { count, millis, rate, seconds } from '../../figures.ts';

export type ProgressMode = 'bar' | 'lines';

/** A bar only on a TTY outside CI (CI=true, or any CI value but "" / "false" / "0"). */
export function progressMode(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): ProgressMode {
  const ci = env.CI !== undefined && !['', 'false', '0'].includes(env.CI.toLowerCase());
  return isTTY && !ci ? 'bar' : 'lines';
}

const position = (index: number, total: number) => `[${index + 1}/${total}]`;

export function startLine(e: ScenarioPosition): string {
  return printableLine(`${position(e.index, e.total)} ${e.scenario} …`);
}

export function endLine(e: ScenarioEnd): string {
  const r = e.result;
  const warned = r.warnings ? ` with ${warningsCount(r.warnings)}` : '';
  const verdict = `${r.verdict}${warned}${r.reason ? ` — ${r.reason}` : ''}`;
  return printableLine(`${position(e.index, e.total)} ${e.scenario}: ${verdict} (${seconds(r.durationMs)})`);
}

/** A scenario's ctx.log line as the run shows it: `  [capacity] 40/s: …`, one line whatever it holds. */
export function logLine(e: Pick<ScenarioLogLine, 'scenario' | 'line'>): string {
  return printableLine(`  [${e.scenario}] ${e.line}`);
}

/**
 * The last second's traffic: "120 req/s · p95 4.21 ms · in-flight 8 · errors 0", and the offered
 * rate of an open-model load.
 */
export function liveText(live: LiveTraffic): string {
  const parts = [
    rate(live.ratePerS, 'req'),
    `p95 ${live.p95Ms === undefined ? '–' : `${millis(live.p95Ms)} ms`}`,
    `in-flight ${count(live.inFlight)}`,
    `errors ${count(live.errors)}`,
  ];
  if (live.offeredPerS !== undefined) parts.push(`offered ${rate(live.offeredPerS)}`);
  return parts.join(' · ');
}

/** Figures older than this are no longer "the last second": the heartbeat shows the totals only. */
const STALE_MS = 2_500;

export function stillRunningLine(
  e: ScenarioPosition,
  elapsedMs: number,
  live?: { traffic: LiveTraffic; ageMs: number },
): string {
  let traffic = '';
  if (live) {
    traffic =
      live.ageMs <= STALE_MS
        ? ` · ${liveText(live.traffic)}`
        : ` · ${count(live.traffic.requests)} requests, ${count(live.traffic.errors)} errors so far`;
  }
  return printableLine(`${position(e.index, e.total)} ${e.scenario}: still running (${seconds(elapsedMs)})${traffic}`);
}

/** "12 passed, 1 failed" over the results so far. */
export function tally(results: ScenarioResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  return VERDICTS.filter((v) => counts.has(v))
    .map((v) => `${counts.get(v)} ${v}`)
    .join(', ');
}

/**
 * `line` in pieces of at most `columns` characters, the pieces after the first indented, broken at
 * a space when there is one past the piece's first third: the bar turns the terminal's line wrapping
 * off while it draws, so a longer line would be cut at the edge.
 */
export function wrapToColumns(line: string, columns: number, indent = '      '): string[] {
  let rest = [...line];
  if (columns < 20 || rest.length <= columns) return [line];
  const pieces: string[] = [];
  let room = columns;
  while (rest.length > room) {
    const space = rest.lastIndexOf(' ', room);
    const cut = space > room / 3 ? space : room;
    pieces.push((pieces.length ? indent : '') + rest.slice(0, cut).join(''));
    rest = rest.slice(rest[cut] === ' ' ? cut + 1 : cut);
    room = columns - indent.length;
  }
  if (rest.length) pieces.push((pieces.length ? indent : '') + rest.join(''));
  return pieces;
}

export interface ProgressOutputOptions {
  stream?: NodeJS.WriteStream;
  mode?: ProgressMode;
  /** Lines mode: how often a running scenario says it still runs. */
  heartbeatMs?: number;
}

interface Running extends ScenarioPosition {
  startedAt: number;
  live?: { traffic: LiveTraffic; at: number };
}

/** A run observer: hand it to runScenarios (with any others, through fanOut). */
export class ProgressOutput implements RunObserver {
  private readonly stream: NodeJS.WriteStream;
  readonly mode: ProgressMode;
  private readonly heartbeatMs: number;
  private readonly results: ScenarioResult[] = [];
  private timer: NodeJS.Timeout | undefined;
  private multibar: cliProgress.MultiBar | undefined;
  private bar: cliProgress.SingleBar | undefined;
  private running: Running | undefined;

  constructor(options: ProgressOutputOptions = {}) {
    this.stream = options.stream ?? process.stderr;
    this.mode = options.mode ?? progressMode(this.stream.isTTY);
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
  }

  onScenarioStart(e: ScenarioPosition): void {
    clearInterval(this.timer);
    const running: Running = { scenario: e.scenario, index: e.index, total: e.total, startedAt: performance.now() };
    this.running = running;
    if (this.mode === 'lines') {
      this.stream.write(`${startLine(e)}\n`);
      this.timer = setInterval(() => {
        const live = running.live
          ? { traffic: running.live.traffic, ageMs: performance.now() - running.live.at }
          : undefined;
        this.stream.write(`${stillRunningLine(running, performance.now() - running.startedAt, live)}\n`);
      }, this.heartbeatMs).unref();
      return;
    }
    if (!this.bar) {
      this.multibar = new cliProgress.MultiBar({
        stream: this.stream,
        format: ' {bar} {value}/{total} {tally}| {scenario} {elapsed}{live}',
        barsize: 16,
        hideCursor: true,
        clearOnComplete: true,
        autopadding: true,
        fps: 5,
      });
      this.bar = this.multibar.create(e.total, e.index, {
        scenario: printableLine(e.scenario),
        elapsed: '',
        live: '',
        tally: '',
      });
    }
    this.bar.update(e.index, { scenario: printableLine(e.scenario), elapsed: '0.0 s', live: '' });
    this.timer = setInterval(
      () =>
        this.bar?.update({ elapsed: seconds(performance.now() - running.startedAt), live: this.liveOnBar(running) }),
      500,
    ).unref();
  }

  /** The bar's live figures: the last second's, while they are fresh. */
  private liveOnBar(running: Running): string {
    const live = running.live;
    if (!live || performance.now() - live.at > STALE_MS) return '';
    return printableLine(` · ${liveText(live.traffic)}`);
  }

  onTraffic(e: ScenarioTraffic): void {
    const running = this.running;
    // Late figures of a scenario that already ended are not the current one's.
    if (!running || running.scenario !== e.scenario) return;
    running.live = { traffic: e.live, at: performance.now() };
    this.bar?.update({ live: this.liveOnBar(running) });
  }

  onLog(e: ScenarioLogLine): void {
    const line = logLine(e);
    if (this.mode === 'lines' || !this.multibar) {
      this.stream.write(`${line}\n`);
      return;
    }
    // Above the bar, which redraws below it; wrapped here, since the bar turns line wrapping off.
    for (const piece of wrapToColumns(line, this.stream.columns ?? 80)) this.multibar.log(`${piece}\n`);
  }

  onScenarioEnd(e: ScenarioEnd): void {
    clearInterval(this.timer);
    this.running = undefined;
    this.results.push(e.result);
    if (this.mode === 'lines') {
      this.stream.write(`${endLine(e)}\n`);
      return;
    }
    // On the bar, only what needs a look stays on screen; every verdict is in the summary after.
    if (e.result.verdict !== 'passed')
      for (const piece of wrapToColumns(endLine(e), this.stream.columns ?? 80)) this.multibar?.log(`${piece}\n`);
    this.bar?.update(e.index + 1, { scenario: '', elapsed: '', live: '', tally: `${tally(this.results)} ` });
  }

  /** Stops the bar and timers; call before printing anything else (and on failure). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.running = undefined;
    this.multibar?.stop();
    this.multibar = undefined;
    this.bar = undefined;
  }
}
