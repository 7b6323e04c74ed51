// The rig's own Prometheus metrics during a run (`a2a-rig run --metrics-port PORT`), in a registry
// of its own: what the rig sends and how it ends (through the fault proxy), answers by outcome,
// every latency a scenario records, the scenario running now, verdicts and checks, faults
// injected, and the open-model load's offered arrival rate and iterations. All of it is counters,
// gauges and histograms updated in place; the numbers are only formatted when scraped.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds, from 0.5 ms to 30 s: resume latencies near 1 ms and capacity round trips near the SLO both resolve. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type IterationEnd = 'succeeded' | 'failed';

export class RigMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'outcome'>;
  private readonly requestSeconds: Histogram<'method'>;
  private readonly answers: Counter<'outcome'>;
  private readonly answerSeconds: Histogram<'outcome'>;
  private readonly latencySeconds: Histogram<'scenario' | 'metric'>;
  private readonly running: Gauge<'scenario'>;
  private readonly scenarios: Counter<'verdict'>;
  private readonly checks: Counter<'ok'>;
  private readonly faults: Counter<'action'>;
  private readonly arrivalRate: Gauge;
  private readonly iterations: Counter<'outcome'>;
  private readonly inFlight: Gauge;
  private current = '';

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'a2a_rig_requests_total',
      help:
        'JSON-RPC exchanges the rig made through the fault proxy, by method and how they ended ' +
        '(ok, rpc_error, failed: no usable reply)',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'a2a_rig_request_duration_seconds',
      help: 'JSON-RPC exchange latency (a stream: until its headers)',
      labelNames: ['method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.answers = new Counter({
      name: 'a2a_rig_answers_total',
      help: 'hitl-prompt/v1 answers sent, by outcome (accepted, conflict, invalid, error)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['accepted', 'conflict', 'invalid', 'error']) this.answers.inc({ outcome }, 0);
    this.answerSeconds = new Histogram({
      name: 'a2a_rig_answer_duration_seconds',
      help: 'Answer sent → reply complete, by outcome',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.latencySeconds = new Histogram({
      name: 'a2a_rig_latency_seconds',
      help: 'Every latency a scenario records (the metrics of results.json), by scenario and metric',
      labelNames: ['scenario', 'metric'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.running = new Gauge({
      name: 'a2a_rig_scenario_running',
      help: '1 for the scenario running now',
      labelNames: ['scenario'],
      registers,
    });
    this.scenarios = new Counter({
      name: 'a2a_rig_scenarios_total',
      help: 'Scenarios finished, by verdict',
      labelNames: ['verdict'],
      registers,
    });
    this.checks = new Counter({
      name: 'a2a_rig_checks_total',
      help: 'Checks recorded by finished scenarios, by result',
      labelNames: ['ok'],
      registers,
    });
    // Zero from the start, like answers: the dashboard's failure panels read 0, not "no data", on a clean run.
    for (const ok of ['true', 'false']) this.checks.inc({ ok }, 0);
    this.faults = new Counter({
      name: 'a2a_rig_fault_events_total',
      help: 'Faults injected or lifted by scenarios (add, remove, disable, enable, reset, restart)',
      labelNames: ['action'],
      registers,
    });
    this.arrivalRate = new Gauge({
      name: 'a2a_rig_arrival_rate_per_second',
      help: 'Offered arrival rate of the open-model load running now (0 when none)',
      registers,
    });
    this.iterations = new Counter({
      name: 'a2a_rig_load_iterations_total',
      help: 'Open-model iterations by outcome (started, succeeded, failed)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['started', 'succeeded', 'failed']) this.iterations.inc({ outcome }, 0);
    this.inFlight = new Gauge({ name: 'a2a_rig_load_in_flight', help: 'Open-model iterations running now', registers });
  }

  /** Every exchange of a client through the fault proxy, as it ends (the run observer's onExchange). */
  exchange(method: string, end: string, latencyMs: number): void {
    this.requests.inc({ method, outcome: end });
    this.requestSeconds.observe({ method }, latencyMs / 1000);
  }

  /** Every answer through the fault proxy, classified (the run observer's onAnswer). */
  answer(outcome: { kind: string; latencyMs: number }): void {
    this.answers.inc({ outcome: outcome.kind });
    this.answerSeconds.observe({ outcome: outcome.kind }, outcome.latencyMs / 1000);
  }

  /** A latency the running scenario recorded. */
  latency(metric: string, us: number): void {
    this.latencySeconds.observe({ scenario: this.current, metric }, us / 1e6);
  }

  /** Scenarios run one at a time: this one labels the latencies until the next starts. */
  scenarioStarted(scenario: string): void {
    this.current = scenario;
    this.running.reset();
    this.running.set({ scenario }, 1);
  }

  scenarioEnded(result: { verdict: string; checks: Array<{ ok: boolean }> }): void {
    this.running.reset();
    this.arrivalRate.set(0);
    this.scenarios.inc({ verdict: result.verdict });
    const ok = result.checks.filter((c) => c.ok).length;
    if (ok) this.checks.inc({ ok: 'true' }, ok);
    if (result.checks.length - ok) this.checks.inc({ ok: 'false' }, result.checks.length - ok);
  }

  faultEvent(action: string): void {
    this.faults.inc({ action });
  }

  setArrivalRate(perSecond: number): void {
    this.arrivalRate.set(perSecond);
  }

  iterationStarted(): void {
    this.iterations.inc({ outcome: 'started' });
    this.inFlight.inc();
  }

  iterationEnded(end: IterationEnd): void {
    this.iterations.inc({ outcome: end });
    this.inFlight.dec();
  }
}
