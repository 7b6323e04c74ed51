// capacity: how many whole human-in-the-loop round trips per second the agent sustains within its
// SLO. The open model offers a constant rate of round trips (send → prompt observed → answer →
// resume observed), one step after another, from `startRate` up by ×`growth`, each for `stepMs`.
// Every round trip's latency counts from its *intended* start, so an agent that stalls cannot hide
// behind fewer requests. The first step that breaks the SLO ends the search:
//   - the round trip's p95 (intended start → resume observed) is over `sloP95Ms` (default 1000), or
//   - failed or unfinished round trips are over `sloMaxErrorPct` % of the step's arrivals (0.1), or
//   - dropped ones (the rig had no slot for them) are over `sloMaxDroppedPct` % (0.1).
// The highest step before it is the capacity; no sustainable step at all fails the scenario. Every
// step is a point of the curve `round_trip_p95_ms_vs_rate_per_s` in results.json, and its latencies
// are the labelled metrics `round_trip{rate=<rate>}` and `resume_latency{rate=<rate>}` (answer sent →
// resume observed), which a threshold can name: `capacity:round_trip{rate=40}.p95<500`.
// The SLO is set with --param (capacity.sloP95Ms=500); a toxic for the whole run with
// --toxic latency=50. The figure is what this rig measures on this machine: rig, proxy and agent
// share its cores.
// `roundTrip` picks the round trip: `hitl` (default) as above, or `acceptance`
// (--param capacity.roundTrip=acceptance): send → artifacts → pending acceptance → accept →
// COMPLETED observed (rig/load/acceptanceRoundTrip.ts), with `acceptance_latency{rate=<rate>}`
// (decision sent → terminal state observed) beside the round trip. One search, one SLO and one
// curve for both, so their capacities compare; each skips against an agent that does not declare
// its extension (checked in run, as the need depends on the parameter).
import {
  defineScenario,
  capacityCheckName,
  constantArrivals,
  geometricRates,
  sloBreaches,
  CAPACITY_SERIES,
  type OpenModelResult,
} from 'a2a-rig';

const ROUND_TRIPS = ['hitl', 'acceptance'] as const;

interface Params {
  /** Which round trip the load offers: 'hitl' or 'acceptance'. */
  roundTrip: string;
  startRate: number;
  growth: number;
  maxRate: number;
  stepMs: number;
  /** One round trip's bound (its resume wait included); past it, it counts as an error. */
  timeoutMs: number;
  /** Round trips in flight at most; more wait (late) in a backlog, and past that are dropped. */
  maxInFlight: number;
  maxBacklog: number;
  /** Keep-alive connections of the load's own client. */
  connections: number;
  sloP95Ms: number;
  sloMaxErrorPct: number;
  sloMaxDroppedPct: number;
}

const SERIES = CAPACITY_SERIES;
const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

/** Why a step breaks the SLO; empty when it holds (one rule with merge's, see sloBreaches). */
function breaches(step: OpenModelResult, p: Params): string[] {
  const kinds = Object.entries(step.failures).map(([k, n]) => `${n} ${k}`);
  if (step.unfinished) kinds.push(`${step.unfinished} unfinished`);
  const first = step.firstFailure ? `; first: ${step.firstFailure}` : '';
  return sloBreaches(
    {
      scheduled: step.scheduled,
      errors: step.failed + step.unfinished,
      dropped: step.dropped,
      completed: step.latency.count,
      p95Ms: step.latency.percentileMs(95),
      errorDetail: `${kinds.join(', ')}${first}`,
    },
    p,
  );
}

const slo = { sloP95Ms: 1000, sloMaxErrorPct: 0.1, sloMaxDroppedPct: 0.1 };
const bounds = { timeoutMs: 5_000, maxInFlight: 512, maxBacklog: 10_000, connections: 64 };

export default defineScenario<Params>({
  name: 'capacity',
  description:
    'steps the rate of whole HITL (or, with roundTrip=acceptance, acceptance-criteria) round trips up ' +
    'until the SLO (p95 from intended send, errors, drops) breaks; reports the highest sustainable rate ' +
    'and the curve',
  tags: ['load', 'latency', 'hitl'],
  // hitl-prompt/v1 for roundTrip=hitl, the acceptance-criteria extension for acceptance: checked in run.
  needs: {},
  params: {
    smoke: { roundTrip: 'hitl', startRate: 5, growth: 2, maxRate: 40, stepMs: 2_000, ...bounds, ...slo },
    ci: { roundTrip: 'hitl', startRate: 10, growth: 1.5, maxRate: 2_000, stepMs: 5_000, ...bounds, ...slo },
    full: { roundTrip: 'hitl', startRate: 10, growth: 1.25, maxRate: 5_000, stepMs: 15_000, ...bounds, ...slo },
  },
  paramChoices: { roundTrip: ROUND_TRIPS },
  budgetMs: { smoke: 20_000, ci: 180_000, full: 900_000 },
  records: {
    latencies: ['round_trip{rate}', 'resume_latency{rate}', 'acceptance_latency{rate}'],
    counters: {
      round_trips_completed: 'tally',
      round_trips_failed: 'tally',
      round_trips_dropped: 'tally',
      round_trips_late: 'tally',
      steps: 'tally',
      capacity_per_s: 'throughput',
      slo_broken_at_per_s: 'limit-or-never',
    },
  },
  catches: ['slow-resume'],
  // Every worker of a distributed run offers 1/N of each step; merge judges the steps on the union.
  shardable: true,
  async run(ctx, p) {
    const acceptance = p.roundTrip === 'acceptance';
    const unsupported = acceptance
      ? ctx.client.acceptance.skipReason({ evaluator: 'client' })
      : ctx.agent.hitl
        ? undefined
        : 'the agent does not declare hitl-prompt/v1 in its card';
    if (unsupported) ctx.skip(unsupported);
    const rates = geometricRates(p.startRate, p.growth, p.maxRate);
    const client = ctx.newClient(p.connections);
    // The round trip at `rate`, its middle latency (resume or acceptance) recorded when a rate is given.
    const roundTripAt = (rate?: number) =>
      acceptance
        ? ctx.acceptanceRoundTrip({
            client,
            timeoutMs: p.timeoutMs,
            ...(rate !== undefined ? { acceptanceLatency: ctx.latency('acceptance_latency', { rate }) } : {}),
          })
        : ctx.hitlRoundTrip({
            client,
            resumeTimeoutMs: p.timeoutMs,
            ...(rate !== undefined ? { resumeLatency: ctx.latency('resume_latency', { rate }) } : {}),
          });
    let capacity = 0;
    let capacityP95 = 0;
    let broke: { rate: number; reasons: string[] } | undefined;
    let stepsRun = 0;
    // Warm-up, not recorded: connections, JIT and the schema caches on both sides, so the first
    // step measures the agent rather than a cold start.
    await ctx.runOpenModel({
      arrivals: constantArrivals(10, 500),
      iteration: roundTripAt(),
      maxInFlight: p.maxInFlight,
      iterationTimeoutMs: p.timeoutMs,
      drainTimeoutMs: p.timeoutMs,
    });
    for (const rate of rates) {
      // A step must fit the budget whole, its drain included: a cut-off step would prove nothing.
      if (ctx.remainingMs() < p.stepMs + p.timeoutMs + 1_000) {
        ctx.log(`the time budget ends before ${rate}/s could run; the search stops at ${capacity}/s`);
        break;
      }
      const roundTrip = ctx.latency('round_trip', { rate });
      const step = await ctx.runOpenModel({
        arrivals: constantArrivals(rate, p.stepMs),
        iteration: roundTripAt(rate),
        maxInFlight: p.maxInFlight,
        maxBacklog: p.maxBacklog,
        iterationTimeoutMs: p.timeoutMs,
        drainTimeoutMs: p.timeoutMs,
        latency: roundTrip,
      });
      stepsRun++;
      const reasons = breaches(step, p);
      const errors = step.failed + step.unfinished;
      ctx.count('round_trips_completed', step.succeeded);
      ctx.count('round_trips_failed', errors);
      ctx.count('round_trips_dropped', step.dropped);
      ctx.count('round_trips_late', step.late);
      ctx.plot(SERIES, {
        x: rate,
        y: roundTrip.percentileMs(95),
        p50_ms: roundTrip.percentileMs(50),
        p99_ms: roundTrip.percentileMs(99),
        achieved_per_s: Math.round((step.succeeded * 10_000) / p.stepMs) / 10,
        arrivals: step.scheduled,
        errors,
        dropped: step.dropped,
        late: step.late,
        sustainable: reasons.length === 0,
      });
      ctx.log(
        `${rate}/s: ${step.succeeded}/${step.scheduled} ok, ` +
          `p50 ${f(roundTrip.percentileMs(50))} ms, p95 ${f(roundTrip.percentileMs(95))} ms, ` +
          `${errors} failed, ${step.dropped} dropped, ${step.late} late` +
          (reasons.length ? ` — breaks the SLO: ${reasons.join('; ')}` : ''),
      );
      if (step.aborted) break;
      if (reasons.length > 0) {
        broke = { rate, reasons };
        break;
      }
      capacity = rate;
      capacityP95 = roundTrip.percentileMs(95);
    }
    ctx.count('steps', stepsRun);
    ctx.count('capacity_per_s', capacity);
    ctx.count('slo_broken_at_per_s', broke?.rate ?? 0);
    const found =
      capacity > 0
        ? `highest sustainable rate ${capacity} round trips/s (p95 ${f(capacityP95)} ms)`
        : 'no sustainable rate';
    const end = broke
      ? `; the SLO broke at ${broke.rate}/s: ${broke.reasons.join('; ')}`
      : stepsRun === rates.length
        ? `; it held up to the highest step tried (${p.maxRate}/s cap)`
        : '; the time budget ended the search';
    ctx.check(capacityCheckName(p), capacity > 0, `${found}${end}`);
  },
});
