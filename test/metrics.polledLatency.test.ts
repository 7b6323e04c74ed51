// A latency seen by polling carries its mark through every way a histogram travels: recorded,
// summarised into results.json, added (a union for a threshold, a merge of runs), so no report
// shows it unmarked as the agent's latency.
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { addMetrics } from '../rig/report/merge/mergeMetrics.ts';

describe('a polled latency', () => {
  it('keeps how many samples were polled and their resolution through summary, add and merge', () => {
    const streamed = new LatencyHistogram();
    streamed.recordMs(2);
    expect(streamed.summary().polled).toBeUndefined();
    const polled = new LatencyHistogram();
    polled.recordMs(40, undefined, 30);
    polled.recordMs(60, undefined, 10);
    expect(polled.summary().polled).toEqual({ count: 2, resolutionMeanUs: 20_000, resolutionMaxUs: 30_000 });
    streamed.add(polled);
    expect(streamed.summary()).toMatchObject({ count: 3, polled: { count: 2, resolutionMaxUs: 30_000 } });

    const result = (h: LatencyHistogram) => ({ ...h.summary(), hdr: h.encode() });
    const merged = addMetrics([
      { name: 'resume_latency', metric: result(polled), what: 'a' },
      { name: 'resume_latency', metric: result(polled), what: 'b' },
    ]).get('resume_latency')!;
    expect(merged).toMatchObject({ count: 4, polled: { count: 4, resolutionMeanUs: 20_000, resolutionMaxUs: 30_000 } });
  });
});
