// What a scenario records and the engine reads back when it ends: checks, latency histograms,
// counters, the latency timeline, fault events, series, traffic, log and notes. A name recorded
// must be declared in the scenario's `records`. EngineScenarioContext (scenarioContext.ts) records
// through this; what it does for the scenario is there.
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../metrics/latencyTimeline.ts';
import { TrafficRecorder } from '../metrics/trafficRecorder.ts';
import { checkedLevel, type CheckOptions } from '../results/checkResult.ts';
import { noneDetail, type ExpectNoneOptions } from './kit/expectNone.ts';
import type { CheckResult, FaultEvent, LogLine, ScenarioResult, SeriesPoint } from '../results/runResult.ts';
import type { RunObserver } from '../results/runObserver.ts';
import type { OpenModelResult } from '../load/openModelExecutor.ts';
import type { RigSpan } from '../metrics/rigHealthMonitor.ts';
import type { RigHealth } from '../metrics/rigHealth.ts';
import { declarationOf, seriesKey, type RecordedMeasures } from '../results/metricNames.ts';
import { ScenarioLog } from './scenarioLog.ts';

/** What the engine hears from a scenario as it runs. */
export interface ScenarioHooks {
  /** Each ctx.log / ctx.note line as it is said (the live display). */
  onLog?(line: LogLine): void;
  /** Someone shows the traffic live: keep the last second's latencies (TrafficRecorder.liveSecond). */
  liveTraffic?: boolean;
  /** An open-model load ended: its schedule lag goes into the scenario's `health` (scenarioHealth.ts). */
  onLoadEnd?(load: OpenModelResult): void;
  /** Watches the rig over a span of the scenario (scenarioHealth.ts); absent when the engine does not watch. */
  rigSpan?(): RigSpan;
}

export class ScenarioRecording {
  readonly checks: CheckResult[] = [];
  readonly metrics = new Map<string, LatencyHistogram>();
  readonly counters = new Map<string, number>();
  /** When the scenario started (performance.now()): t = 0 of its timeline and fault events. */
  readonly startedAt = performance.now();
  /** Every latency recorded, in time buckets (the report's latency-over-time chart). */
  readonly timeline = new LatencyTimeline(this.startedAt);
  /** Every fault injected or lifted through `faults` or `restartAgent`, in order. */
  readonly faultEvents: FaultEvent[] = [];
  /** Curves plotted with `plot()` (results.json `series`). */
  readonly series = new Map<string, SeriesPoint[]>();
  /** The scenario's own traffic through its clients (results.json `traffic`), and its open-model loads. */
  readonly traffic: TrafficRecorder;
  private readonly log_ = new ScenarioLog();
  private readonly noteLines: string[] = [];
  /** Declared measures a threshold must not judge, with why (results.json `notJudged`). */
  private readonly notJudgedMeasures = new Map<string, string>();

  constructor(
    /** The run's observer (runObserver.ts), told of latencies and fault events as they happen. */
    private readonly observer: RunObserver | undefined,
    private readonly records: RecordedMeasures,
    private readonly hooks: ScenarioHooks,
  ) {
    this.traffic = new TrafficRecorder(this.startedAt, { live: hooks.liveTraffic === true });
  }

  /**
   * Recorded once the change took effect (a restart: when the kill began), so the timeline shows
   * when faults were really in place.
   */
  protected faultEvent(action: FaultEvent['action'], target: string, detail?: string, at = performance.now()): void {
    const t = Math.round(at - this.startedAt);
    const event: FaultEvent = detail === undefined ? { t, action, target } : { t, action, target, detail };
    this.faultEvents.push(event);
    this.observer?.onFaultEvent?.(event);
  }

  /** Tells the engine an open-model load ended; returns it. */
  protected loadEnded(load: OpenModelResult): OpenModelResult {
    this.hooks.onLoadEnd?.(load);
    return load;
  }

  /** Starts watching the rig over a span (a capacity step); `end()` gives its health, undefined when not watched. */
  watchRig(): { end(): RigHealth | undefined } {
    const span = this.hooks.rigSpan?.();
    return { end: () => span?.end() };
  }

  /**
   * A declared counter or latency the scenario measured but that must not be judged (capacity when
   * the rig was the limit): a threshold on it is not judged, and the run exits 3, not 0 or 1.
   */
  measureNotJudged(base: string, why: string): void {
    const name = this.declared(
      base,
      undefined,
      [...this.records.latencies, ...Object.keys(this.records.counters)],
      'measure',
    );
    this.notJudgedMeasures.set(name, why);
    this.note(`${name} not judged: ${why}`);
  }

  /** results.json `notes` and `notJudged`, each absent when empty: what the scenario did not judge. */
  leftOut(): Pick<ScenarioResult, 'notes' | 'notJudged'> {
    return {
      ...(this.noteLines.length > 0 ? { notes: [...this.noteLines] } : {}),
      ...(this.notJudgedMeasures.size > 0 ? { notJudged: Object.fromEntries(this.notJudgedMeasures) } : {}),
    };
  }

  /** Records a check at its level (default MUST; see checkResult.ts); returns `ok` so a scenario can branch on it. */
  check(name: string, ok: boolean, detail?: string, options?: CheckOptions): boolean {
    const level = checkedLevel(name, options);
    this.checks.push({ name, ok, ...(detail === undefined ? {} : { detail }), ...(level ? { level } : {}) });
    return ok;
  }

  /** "None of these `total` went wrong" as one check (kit/expectNone.ts); returns whether none did. */
  expectNone(name: string, problems: readonly string[], total: number, options: ExpectNoneOptions = {}): boolean {
    const { passed, wrong, ...checkOptions } = options;
    return this.check(name, problems.length === 0, noneDetail(problems, total, { passed, wrong }), checkOptions);
  }

  /**
   * Records a check that could be judged neither way (`detail` says why): not ok, so no reader takes
   * it for a pass, and not failed — the scenario is inconclusive unless another check fails.
   */
  notJudged(name: string, detail: string): void {
    this.checks.push({ name, ok: false, detail, judged: false });
  }

  /** The histogram of a declared latency (labels: one series of a labelled one, `round_trip{rate=40}`). */
  latency(base: string, labels?: Record<string, string | number>): LatencyHistogram {
    const name = this.declared(base, labels, this.records.latencies, 'latency');
    let h = this.metrics.get(name);
    if (!h) {
      const observer = this.observer;
      h = new LatencyHistogram(undefined, (us, at) => {
        this.timeline.record(name, us, at);
        observer?.onLatency?.(name, us);
      });
      this.metrics.set(name, h);
    }
    return h;
  }

  count(base: string, by = 1, labels?: Record<string, string | number>): void {
    const name = this.declared(base, labels, Object.keys(this.records.counters), 'counter');
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  /** A recorded name must be declared in the scenario's `records`, so thresholds can be checked before a run. */
  private declared(
    base: string,
    labels: Record<string, string | number> | undefined,
    declared: string[],
    kind: string,
  ): string {
    const declaration = declarationOf(base, declared);
    const given = Object.keys(labels ?? {});
    if (
      !declaration ||
      declaration.base !== base ||
      declaration.labels.length !== given.length ||
      !given.every((k) => declaration.labels.includes(k))
    ) {
      const names = declared.join(', ') || 'none';
      throw new Error(`${kind} ${seriesKey(base, labels)} is not declared in the scenario's records (${names})`);
    }
    // Labels in declared order, so one series has one key however the call spells it.
    return seriesKey(base, Object.fromEntries(declaration.labels.map((k) => [k, labels![k]!])));
  }

  /** A line for the terminal (under the progress display) and results.json `log`, with its time. */
  log(line: string): void {
    const logged = { t: Math.round(performance.now() - this.startedAt), line: String(line) };
    this.log_.push(logged);
    this.hooks.onLog?.(logged);
  }

  /** The lines kept (at most LOG_LINES_KEPT: the first and the last half), and how many between them were left out. */
  get logs(): { lines: LogLine[]; dropped: number } {
    return { lines: this.log_.lines, dropped: this.log_.dropped };
  }

  /** Something the scenario could not judge here and left out, with why: results.json `notes` (and the log). */
  note(line: string): void {
    this.noteLines.push(line);
    this.log(line);
  }

  get notes(): readonly string[] {
    return this.noteLines;
  }

  /** Adds a point to a curve named `<y>_vs_<x>` (units in the name; see SeriesPoint in runResult.ts). */
  plot(series: string, point: SeriesPoint): void {
    const points = this.series.get(series) ?? [];
    this.series.set(series, [...points, point]);
  }
}
