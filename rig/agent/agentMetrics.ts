// The agent's Prometheus metrics (prom-client), served at GET /metrics, in a registry of its own (two
// agents in one process never mix their numbers). The answer path only increments counters and
// observes a histogram; tasks by state and open prompts are counted in the outbox when scraped, so
// they stay true across restarts and cost nothing between scrapes.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type AnswerOutcomeLabel = 'accepted' | 'conflict' | 'invalid' | 'error';
/** Acceptance decisions: the winning ones by action, the refused ones by error. */
export type DecisionOutcomeLabel = 'accepted' | 'rejected' | 'conflict' | 'unauthorized' | 'invalid' | 'error';
const DECISION_OUTCOMES: DecisionOutcomeLabel[] = [
  'accepted',
  'rejected',
  'conflict',
  'unauthorized',
  'invalid',
  'error',
];

/** What the gauges read at scrape time. */
export interface AgentCounts {
  tasksByState(): Record<string, number>;
  openPrompts(): number;
  pendingAcceptances(): number;
}

/** Every A2A state, so a state with no task reads 0 instead of vanishing from the scrape. */
const TASK_STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/** The gauges the outbox answers at scrape time: tasks by state, open prompts, pending acceptances. */
function registerOutboxGauges(registers: Registry[], counts: AgentCounts): void {
  new Gauge({
    name: 'a2a_agent_tasks',
    help: 'Tasks in the outbox by A2A state',
    labelNames: ['state'],
    registers,
    collect() {
      const byState = counts.tasksByState();
      for (const state of new Set([...TASK_STATES, ...Object.keys(byState)])) this.set({ state }, byState[state] ?? 0);
    },
  });
  new Gauge({
    name: 'a2a_agent_open_prompts',
    help: 'hitl-prompt/v1 prompts waiting for an answer',
    registers,
    collect() {
      this.set(counts.openPrompts());
    },
  });
  new Gauge({
    name: 'a2a_agent_pending_acceptances',
    help: 'Tasks pending an acceptance decision (acceptance-criteria extension)',
    registers,
    collect() {
      this.set(counts.pendingAcceptances());
    },
  });
}

export class AgentMetrics {
  readonly registry = new Registry();
  private readonly answers: Counter<'outcome'>;
  private readonly resume: Histogram;
  private readonly events: Counter;
  private readonly decisions: Counter<'outcome'>;
  private readonly shed: Counter<'reason'>;
  private readonly limited: Counter;
  /** What the open-connections gauge reads at scrape time (startAgent sets it). */
  openConnections: () => number = () => 0;

  constructor(counts: AgentCounts) {
    const registers = [this.registry];
    registerOutboxGauges(registers, counts);
    this.decisions = new Counter({
      name: 'a2a_agent_acceptance_decisions_total',
      help:
        'Acceptance decisions by outcome: accepted, rejected (applied), conflict (-32042), ' +
        'unauthorized (-32043), invalid (-32044), error (any other refusal)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of DECISION_OUTCOMES) this.decisions.inc({ outcome }, 0);
    this.answers = new Counter({
      name: 'a2a_agent_answers_total',
      help:
        'Answers to prompts by outcome: accepted, conflict (409 / -32010), invalid (422 / -32011), ' +
        'error (any other refusal)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['accepted', 'conflict', 'invalid', 'error'] as const) this.answers.inc({ outcome }, 0);
    this.resume = new Histogram({
      name: 'a2a_agent_resume_latency_seconds',
      help: "From a valid answer's arrival to the commit of the task leaving INPUT_REQUIRED",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.events = new Counter({
      name: 'a2a_agent_outbox_events_total',
      help: 'Events appended to the outbox (task log) by this process',
      registers,
    });
    // The DoS mitigations (issue 14): what the connection bounds and the rate limiter did.
    // Read at each scrape: openConnections is assigned once the server is listening.
    const openConnections = () => this.openConnections();
    new Gauge({
      name: 'a2a_agent_open_connections',
      help: 'Open TCP connections admitted by the connection bounds (shed sockets are not counted)',
      registers,
      collect() {
        this.set(openConnections());
      },
    });
    this.shed = new Counter({
      name: 'a2a_agent_connections_shed_total',
      help: 'Connections closed on accept because a bound was reached: per-client (one remote IP) or total',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of ['per-client', 'total']) this.shed.inc({ reason }, 0);
    this.limited = new Counter({
      name: 'a2a_agent_requests_rate_limited_total',
      help: 'Requests answered 429 by the per-client rate limit (--rate-limit)',
      registers,
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'a2a_agent_' });
  }

  answered(outcome: AnswerOutcomeLabel): void {
    this.answers.inc({ outcome });
  }

  decided(outcome: DecisionOutcomeLabel): void {
    this.decisions.inc({ outcome });
  }

  resumed(seconds: number): void {
    this.resume.observe(seconds);
  }

  connectionShed(reason: 'per-client' | 'total'): void {
    this.shed.inc({ reason });
  }

  rateLimited(): void {
    this.limited.inc();
  }

  eventAppended(): void {
    this.events.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text (what GET /metrics answers). */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
