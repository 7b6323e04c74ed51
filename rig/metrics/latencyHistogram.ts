// Latencies in microseconds in an HDR histogram (hdr-histogram-js): percentiles that stay exact to
// 3 significant digits, an encoding that travels whole in results.json, and add() so runs merge as
// data, never as averaged percentiles.
import * as hdr from 'hdr-histogram-js';
import { sampleOfCounts, type SampleSet } from '../stats/sampleSet.ts';

/** One hour in microseconds: anything slower is clamped (and counted as such by max). */
const HIGHEST_US = 3_600_000_000;

export interface LatencySummary {
  unit: 'us';
  count: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  /**
   * Present when some samples were observed by polling (GetTask) rather than as they happened on a
   * stream: how many, and the poll's resolution (the span, µs, between the last poll that saw the
   * old state being sent and the one that saw the new state answering: the true time is somewhere in
   * it). Such a latency is the rig's polling as much as the agent's; reports mark it and gates do
   * not judge it as the agent's latency.
   */
  polled?: PolledSamples;
}

export interface PolledSamples {
  count: number;
  /** The resolution's mean and largest, µs. */
  resolutionMeanUs: number;
  resolutionMaxUs: number;
}

/** Two polled tallies as one (a merge, a union for a threshold); undefined when neither has any. */
export function addPolled(a: PolledSamples | undefined, b: PolledSamples | undefined): PolledSamples | undefined {
  if (!a || !b) return a ?? b;
  const count = a.count + b.count;
  return {
    count,
    resolutionMeanUs: Math.round((a.resolutionMeanUs * a.count + b.resolutionMeanUs * b.count) / count),
    resolutionMaxUs: Math.max(a.resolutionMaxUs, b.resolutionMaxUs),
  };
}

function newHistogram(): hdr.Histogram {
  return hdr.build({
    bitBucketSize: 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
  });
}

/** A point of the percentile distribution: the latency (µs) at or below which `percentile` % fall. */
export interface PercentilePoint {
  percentile: number;
  us: number;
}

/**
 * Told of every recorded value, with the performance.now() time it belongs to (by default the
 * moment of recording): how the engine keeps a time series and live metrics beside the histogram.
 */
export type RecordObserver = (us: number, at: number) => void;

export class LatencyHistogram {
  private readonly histogram: hdr.Histogram;
  private polled: PolledSamples | undefined;

  constructor(
    histogram?: hdr.Histogram,
    private readonly observer?: RecordObserver,
  ) {
    this.histogram = histogram ?? newHistogram();
  }

  static decode(encoded: string): LatencyHistogram {
    const decoded = hdr.decodeFromCompressedBase64(encoded, 64, false);
    const histogram = newHistogram();
    histogram.add(decoded);
    return new LatencyHistogram(histogram);
  }

  /** `at`: the performance.now() time the value belongs to (when the operation ended); default now. */
  recordMicros(us: number, at?: number): void {
    const value = Math.min(HIGHEST_US, Math.max(1, Math.round(us)));
    this.histogram.recordValue(value);
    this.observer?.(value, at ?? performance.now());
  }

  /**
   * Records a duration given in milliseconds (as performance.now() differences are). With
   * `pollResolutionMs` the end was seen by polling, that sure: see LatencySummary.polled.
   */
  recordMs(ms: number, at?: number, pollResolutionMs?: number): void {
    this.recordMicros(ms * 1000, at);
    if (pollResolutionMs === undefined) return;
    const us = Math.max(1, Math.round(pollResolutionMs * 1000));
    this.polled = addPolled(this.polled, { count: 1, resolutionMeanUs: us, resolutionMaxUs: us });
  }

  add(other: LatencyHistogram): void {
    this.histogram.add(other.histogram);
    this.polled = addPolled(this.polled, other.polled);
  }

  /** Counts polled samples a decoded histogram (which keeps only values) came with. */
  withPolled(polled: PolledSamples | undefined): this {
    this.polled = addPolled(this.polled, polled);
    return this;
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** Milliseconds at a percentile (0..100), as recordMs() takes them; 0 when empty. */
  percentileMs(p: number): number {
    return this.percentileUs(p) / 1000;
  }

  /** Microseconds at a percentile (0..100), as the histogram keeps them (results.json, thresholds); 0 when empty. */
  percentileUs(p: number): number {
    return this.count === 0 ? 0 : this.histogram.getValueAtPercentile(p);
  }

  /**
   * The percentile distribution as points for a curve on a "nines" axis (x = log10(1 / (1 − p))):
   * `perNine` points per decade from 0 % up to 99.999 %, stopping at the nines the count can
   * resolve (n values resolve about log10(n) nines; the last point is then about the maximum).
   * Empty when empty.
   */
  percentileCurve(perNine = 20, maxNines = 5): PercentilePoint[] {
    if (this.count === 0) return [];
    const nines = Math.min(maxNines, Math.log10(Math.max(10, this.count)));
    const points: PercentilePoint[] = [];
    for (let i = 0; i <= Math.floor(nines * perNine); i++) {
      const percentile = 100 * (1 - 10 ** (-i / perNine));
      points.push({ percentile, us: this.histogram.getValueAtPercentile(percentile) });
    }
    return points;
  }

  summary(): LatencySummary {
    const empty = this.count === 0;
    return {
      unit: 'us',
      count: this.count,
      min: empty ? 0 : this.histogram.minNonZeroValue,
      mean: empty ? 0 : Math.round(this.histogram.mean),
      p50: this.percentileUs(50),
      p90: this.percentileUs(90),
      p95: this.percentileUs(95),
      p99: this.percentileUs(99),
      max: empty ? 0 : this.histogram.maxValue,
      ...(this.polled ? { polled: { ...this.polled } } : {}),
    };
  }

  /**
   * The recorded values as the statistics read them (rig/stats/): each bucket's highest equivalent
   * value (the value the percentiles above report) with its count.
   */
  sample(): SampleSet {
    if (this.count === 0) return sampleOfCounts([]);
    const js = this.histogram as unknown as hdr.JsHistogram;
    const pairs: [number, number][] = [];
    const iterator = js.recordedValuesIterator;
    iterator.reset();
    while (iterator.hasNext()) {
      const step = iterator.next();
      pairs.push([js.highestEquivalentValue(step.valueIteratedTo), step.countAtValueIteratedTo]);
    }
    return sampleOfCounts(pairs);
  }

  encode(): string {
    return hdr.encodeIntoCompressedBase64(this.histogram);
  }
}
