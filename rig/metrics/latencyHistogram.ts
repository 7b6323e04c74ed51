// Latencies in microseconds in an HDR histogram (hdr-histogram-js): percentiles that stay exact to
// 3 significant digits, an encoding that travels whole in results.json, and add() so runs merge as
// data, never as averaged percentiles.
import * as hdr from 'hdr-histogram-js';

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
}

function newHistogram(): hdr.Histogram {
  return hdr.build({ bitBucketSize: 64, lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3 });
}

export class LatencyHistogram {
  private readonly histogram: hdr.Histogram;

  constructor(histogram?: hdr.Histogram) {
    this.histogram = histogram ?? newHistogram();
  }

  static decode(encoded: string): LatencyHistogram {
    const decoded = hdr.decodeFromCompressedBase64(encoded, 64, false);
    const histogram = newHistogram();
    histogram.add(decoded);
    return new LatencyHistogram(histogram);
  }

  recordMicros(us: number): void {
    this.histogram.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(us))));
  }

  /** Records a duration given in milliseconds (as performance.now() differences are). */
  recordMs(ms: number): void {
    this.recordMicros(ms * 1000);
  }

  add(other: LatencyHistogram): void {
    this.histogram.add(other.histogram);
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** Microseconds at a percentile (0..100); 0 when empty. */
  percentile(p: number): number {
    return this.count === 0 ? 0 : this.histogram.getValueAtPercentile(p);
  }

  summary(): LatencySummary {
    const empty = this.count === 0;
    return {
      unit: 'us',
      count: this.count,
      min: empty ? 0 : this.histogram.minNonZeroValue,
      mean: empty ? 0 : Math.round(this.histogram.mean),
      p50: this.percentile(50),
      p90: this.percentile(90),
      p95: this.percentile(95),
      p99: this.percentile(99),
      max: empty ? 0 : this.histogram.maxValue,
    };
  }

  encode(): string {
    return hdr.encodeIntoCompressedBase64(this.histogram);
  }
}
