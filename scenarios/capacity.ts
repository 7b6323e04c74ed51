// capacity: how many whole human-in-the-loop round trips per second the agent sustains within its
// SLO. The open model offers a constant rate of round trips (send → prompt observed → answer →
// resume observed), one step after another, from `startRate` up by ×`growth`, each for `stepMs`.
// Every round trip's latency counts from its *intended* start, so an agent that stalls cannot hide
// behind fewer requests. The first step that breaks the SLO ends the search:
//   - the round trip's p95 (intended start → resume observed) is over `sloP95Ms` (default 1000), or
//   - failed or unfinished round trips are over `sloMaxErrorPct` % of the step's arrivals (0.1), or
//   - dropped ones (the rig had no slot for them) are over `sloMaxDroppedPct` % (0.1).
// The knee between the last step that held and the first that broke is then bisected to
// `resolutionPct` % of the rate held (budget permitting): "capacity 720/s (between 720 and 790/s,
// resolution 10 %)". No sustainable step at all fails the scenario. A broken step is the agent's
// limit only when the rig was not: when the load generator was saturated over the step
// (rigSaturation: its loop, its CPU, or its own starts late with a slot free) or only its own
// bounds broke the SLO (drops from a full backlog; a p95 over the bound while the agent's service
// time held it: the wait was the rig's start lag), the result says
// "capacity ≥ N/s: the load generator was the limit", counts `capacity_rig_limited`, and a
// threshold on `capacity_per_s` is not judged (exit 3). The achieved rate counts only round trips
// completed within the step's window; those of the drain after it are counted apart (`drained`).
// Every step, refinements included, is a point of the curve `round_trip_p95_ms_vs_rate_per_s` in
// results.json (in the order run: readers sort by rate; with its start lag p99 and worst
// event-loop delay, `schedule_lag_p99_ms` and `loop_delay_max_ms`), and its latencies
// are the labelled metrics `round_trip{rate=<rate>}` and `resume_latency{rate=<rate>}` (answer sent →
// resume observed), which a threshold can name: `capacity:round_trip{rate=40}.p95<500`.
// The SLO is set with --param (capacity.sloP95Ms=500); a toxic for the whole run with
// --toxic latency=50 (the load passes the fault proxy only then: it adds no fault of its own). The
// figure is what this rig measures on this machine: rig and agent (and a proxy in use) share its cores.
// `roundTrip` picks the round trip: `hitl` (default) as above, or `acceptance`
// (--param capacity.roundTrip=acceptance): send → artifacts → pending acceptance → accept →
// COMPLETED observed (rig/load/acceptanceRoundTrip.ts), with `acceptance_latency{rate=<rate>}`
// (decision sent → terminal state observed) beside the round trip. One search, one SLO and one
// curve for both, so their capacities compare; each skips against an agent that does not declare
// its extension (checked in run, as the need depends on the parameter).
import { defineScenario, type ScenarioContext, capacity, type types } from 'a2a-rig';

const ROUND_TRIPS = ['hitl', 'acceptance'] as const;

interface Params {
  /** Which round trip the load offers: 'hitl' or 'acceptance'. */
  roundTrip: string;
  startRate: number;
  growth: number;
  maxRate: number;
  stepMs: number;
  /** Refine the knee by bisection until the bracket is within this % of the rate held; 0: no refinement. */
  resolutionPct: number;
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

const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

/** The load every step offers: its round trip at a rate, and which processes the rig's CPU counts. */
interface Load {
  roundTripAt: (rate: number) => types.Iteration;
  cpuCounts: string;
}

/** One step run: its verdict, and its p95 for the check's text. */
interface StepRun {
  rate: number;
  verdict: capacity.StepVerdict;
  p95Ms: number;
}

const slo = { sloP95Ms: 1000, sloMaxErrorPct: 0.1, sloMaxDroppedPct: 0.1 };
const bounds = { timeoutMs: 5_000, maxInFlight: 512, maxBacklog: 10_000, connections: 64 };

/** Runs one step at `rate`, records it (counters, curve point, log line) and judges it. */
async function runStep(ctx: ScenarioContext, p: Params, load: Load, rate: number, refined: boolean) {
  const iteration = load.roundTripAt(rate);
  const roundTrip = ctx.latency('round_trip', { rate });
  const origin = performance.now();
  const completions = capacity.stepCompletions(origin, p.stepMs);
  const span = ctx.watchRig();
  const step = await ctx.runOpenModel({
    arrivals: capacity.constantArrivals(rate, p.stepMs),
    origin,
    observer: completions,
    iteration,
    maxInFlight: p.maxInFlight,
    maxBacklog: p.maxBacklog,
    iterationTimeoutMs: p.timeoutMs,
    drainTimeoutMs: p.timeoutMs,
    latency: roundTrip,
  });
  const health = span.end();
  const verdict = capacity.stepVerdict(step, p, health);
  const errors = step.failed + step.unfinished;
  ctx.count('steps');
  ctx.count('round_trips_completed', step.succeeded);
  ctx.count('round_trips_failed', errors);
  ctx.count('round_trips_dropped', step.dropped);
  ctx.count('round_trips_late', step.late);
  const [p50, p95, p99] = [50, 95, 99].map((q) => roundTrip.percentileMs(q)) as [number, number, number];
  const serviceP95 = step.serviceTime.percentileMs(95);
  const lagP99 = step.schedule.startLag.percentileMs(99);
  ctx.plot(capacity.CAPACITY_SERIES, {
    x: rate,
    y: p95,
    p50_ms: p50,
    p99_ms: p99,
    service_p95_ms: serviceP95,
    achieved_per_s: capacity.perSecond(completions.within, p.stepMs),
    drained: completions.drained,
    arrivals: step.scheduled,
    errors,
    timeouts: capacity.stepTimeouts(step),
    dropped: step.dropped,
    late: step.late,
    schedule_lag_p99_ms: lagP99,
    loop_delay_max_ms: step.schedule.eventLoopDelayMs.max,
    peak_in_flight: step.peakInFlight,
    ...capacity.stepCpuCost(health, step.succeeded),
    rig_cpu_counts: load.cpuCounts,
    sustainable: verdict.reasons.length === 0,
    ...(verdict.byRig ? { limit: 'rig' } : verdict.reasons.length ? { limit: 'agent' } : {}),
    ...(verdict.rigBounds.length ? { rig_bounds: verdict.rigBounds.join(', ') } : {}),
    ...(verdict.saturation ? { rig_saturated: verdict.saturation } : {}),
    ...(refined ? { refined: true } : {}),
  });
  ctx.log(
    `${refined ? 'refining: ' : ''}${rate}/s: ${completions.within}/${step.scheduled} ok within the step ` +
      `(+${completions.drained} in the drain), p50 ${f(p50)} ms, p95 ${f(p95)} ms (service ${f(serviceP95)} ms), ` +
      `${errors} failed, ${step.dropped} dropped, ${step.late} late (start lag p99 ${f(lagP99)} ms), ` +
      `${step.peakInFlight} in flight at most` +
      (verdict.reasons.length ? ` — breaks the SLO: ${verdict.reasons.join('; ')}` : '') +
      (verdict.byRig ? " — the rig's limit, not the agent's" : ''),
  );
  return { run: { rate, verdict, p95Ms: p95 }, aborted: step.aborted };
}

export default defineScenario<Params>({
  name: 'capacity',
  description:
    'steps the rate of whole HITL (or, with roundTrip=acceptance, acceptance-criteria) round trips up ' +
    'until the SLO (p95 from intended send, errors, drops) breaks, bisects the knee; reports the highest ' +
    'sustainable rate and the curve, or that the rig was the limit',
  tags: ['load', 'latency', 'hitl'],
  // hitl-prompt/v1 for roundTrip=hitl, the acceptance-criteria extension for acceptance: checked in run.
  needs: {},
  params: {
    smoke: {
      roundTrip: 'hitl',
      startRate: 5,
      growth: 2,
      maxRate: 40,
      stepMs: 2_000,
      // One refinement at most (a ×2 bracket halved is 50 % apart): smoke stays short.
      resolutionPct: 50,
      ...bounds,
      ...slo,
    },
    ci: {
      roundTrip: 'hitl',
      startRate: 10,
      growth: 1.5,
      maxRate: 2_000,
      stepMs: 5_000,
      resolutionPct: 10,
      ...bounds,
      ...slo,
    },
    full: {
      roundTrip: 'hitl',
      startRate: 10,
      growth: 1.25,
      maxRate: 5_000,
      stepMs: 15_000,
      resolutionPct: 10,
      ...bounds,
      ...slo,
    },
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
      capacity_rig_limited: 'tally',
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
    const rates = capacity.geometricRates(p.startRate, p.growth, p.maxRate);
    // Nobody reads the load's replies back: each is checked as it arrives, none is kept. No fault of
    // its own is added, so without a --toxic the load goes straight to the agent, as it would
    // without a fault backend: the proxy's hop would be measured with the agent (and an embedded
    // proxy's CPU with the rig's).
    const client = ctx.newClient(p.connections, { keepResponses: false, proxy: 'for-toxics' });
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
    const cpuCounts = capacity.rigCpuCounts(client.viaProxy, ctx.faults.backend);
    // Warm-up, not recorded: connections, JIT and the schema caches on both sides, so the first
    // step measures the agent rather than a cold start.
    const warm = await ctx.runOpenModel({
      arrivals: capacity.constantArrivals(10, 500),
      iteration: roundTripAt(),
      maxInFlight: p.maxInFlight,
      iterationTimeoutMs: p.timeoutMs,
      drainTimeoutMs: p.timeoutMs,
    });
    // No capacity to find for an agent the rig never got a connection to: the run errors, saying so.
    capacity.assertReached(warm, 'the warm-up');
    const runs = new Map<number, StepRun>();
    const probe = async (rate: number, refined: boolean): Promise<capacity.ProbeOutcome> => {
      // A step must fit the budget whole, its drain included: a cut-off step would prove nothing.
      if (ctx.remainingMs() < p.stepMs + p.timeoutMs + 1_000) {
        ctx.log(
          `the time budget ends before ${rate}/s could run; the ${refined ? 'refinement' : 'search'} stops there`,
        );
        return 'stop';
      }
      const done = await runStep(ctx, p, { roundTripAt, cpuCounts }, rate, refined);
      runs.set(rate, done.run);
      if (done.aborted) return 'stop';
      return done.run.verdict.reasons.length === 0 ? 'held' : 'broke';
    };
    const knee = await capacity.searchKnee(rates, p.resolutionPct, probe);
    report(ctx, p, { ...knee, runs, topReached: runs.has(rates.at(-1)!) });
  },
});

/** The counters, the check and, when the rig was the limit, a note saying the capacity is not judged. */
function report(
  ctx: ScenarioContext,
  p: Params,
  end: { held: number; broke?: number; runs: Map<number, StepRun>; topReached: boolean },
) {
  const { held, broke, runs } = end;
  const brokeRun = broke !== undefined ? runs.get(broke) : undefined;
  // The first step is far below any rig's limit: breaking there is the agent's (slow-resume's 1.5 s).
  const byRig = held > 0 && brokeRun?.verdict.byRig === true;
  ctx.count('capacity_per_s', held);
  ctx.count('slo_broken_at_per_s', broke ?? 0);
  ctx.count('capacity_rig_limited', byRig ? 1 : 0);
  const heldP95 = runs.get(held)?.p95Ms;
  const atHeld = heldP95 !== undefined ? ` (p95 ${f(heldP95)} ms at ${held}/s)` : '';
  let detail: string;
  if (brokeRun) {
    const knee = capacity.kneeText(held, brokeRun.rate, p.resolutionPct, brokeRun.verdict, atHeld);
    detail = `${knee}; the SLO broke at ${brokeRun.rate}/s: ${brokeRun.verdict.reasons.join('; ')}`;
  } else if (held === 0) detail = 'no sustainable rate: the time budget ended the search before the first step';
  else
    detail = end.topReached
      ? `capacity ≥ ${held}/s${atHeld}: it held up to the highest step tried (${p.maxRate}/s cap)`
      : `capacity ≥ ${held}/s${atHeld}: the time budget ended the search`;
  if (byRig) ctx.measureNotJudged('capacity_per_s', detail);
  // The SLO is the user's bound, not a spec rule: MUST (the default level) keeps it failing the run.
  ctx.check(capacity.capacityCheckName(p), held > 0, detail);
}
