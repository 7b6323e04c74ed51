// What an attack is, for the DoS-mitigation scenarios (issue 14): a named generator of hostile
// traffic, open model (a start every 1/rate s, never waiting for replies), bounded in count and
// time, aimed at a loopback agent from a loopback source address of its own (127.0.0.2 by
// default) so an agent that limits per client can tell the attacker from the legitimate traffic.
// Each attack reports one outcome per hostile request or connection: how the agent refused it
// and how fast. The engine runs attacks beside a legitimate HITL workload (rig/engine/).

/** What the agent did with one hostile request or connection. */
export type AttackOutcomeKind =
  /** Refused with a 4xx other than 429, or a JSON-RPC error reply (HTTP 200 with `error`). */
  | 'refused'
  /** 429 (or 503) with a Retry-After header: a rate limit working. */
  | 'rate-limited'
  /** The agent closed or reset the connection (a slow client cut, an idle connection shed, a stream cut). */
  | 'cut'
  /** The agent did what the attack asked (2xx without an error): the mitigation is missing. */
  | 'accepted'
  /** 5xx (other than 503 with Retry-After): the agent failed under the attack. */
  | 'server-error'
  /** The attack's own bound passed with no refusal: the agent held the request or connection. */
  | 'held'
  /** The connection could not be opened (refused, reset during connect, out of ports). */
  | 'connect-failed';

export interface AttackOutcome {
  /** performance.now() when the request or connection started. */
  startedAt: number;
  /** Until the outcome was observed (the reply's end, the close, or the attack's bound). */
  latencyMs: number;
  kind: AttackOutcomeKind;
  /** HTTP status when there was a reply. */
  status?: number;
  /** JSON-RPC error.code (or the HTTP+JSON error's code) when the reply carried one. */
  code?: number;
  /** A Retry-After header came with the reply. */
  retryAfter?: boolean;
  /** One line: what came back, for the log and the first-failure detail. */
  detail?: string;
  /**
   * Attacks that send a body in parts (oversized-answer): true when the refusal (reply or close)
   * came before the attack had sent the whole body, false when the whole body went out first.
   */
  beforeBodyEnd?: boolean;
}

/** Where the attack goes and with what. Everything is loopback: the runner refuses anything else. */
export interface AttackTarget {
  /** The agent's base URL, e.g. http://127.0.0.1:41234 (a loopback host). */
  baseUrl: URL;
  /** The endpoint the agent's card names for its binding (JSON-RPC: POST here). */
  endpoint: URL;
  binding: 'JSONRPC' | 'HTTP+JSON';
  /** The wire generation the card speaks ('1.0' or '0.3'). */
  generation: '1.0' | '0.3';
  /** Loopback source address for every attack socket (default 127.0.0.2). */
  sourceAddress: string;
  /** Headers every A2A request carries (A2A-Version, the activation header). */
  headers: Record<string, string>;
  /**
   * Opens a new prompt for answer attacks (the task parked in INPUT_REQUIRED with a hitl-prompt/v1
   * envelope): its task and context ids, prompt_id, response_schema and a valid payload.
   * Undefined when the agent does not park tasks (attacks that need it then say so).
   */
  openPrompt?: () => Promise<LivePrompt>;
}

export interface LivePrompt {
  taskId: string;
  contextId?: string;
  promptId: string;
  responseSchema: unknown;
  validPayload: unknown;
}

export interface AttackSchedule {
  /** Hostile requests (or connections) started per second. */
  ratePerSecond: number;
  /** At most this many started. */
  maxRequests: number;
  /** No start after this many ms. */
  durationMs: number;
  /** Aborting stops new starts and ends every open request/connection at once. */
  signal: AbortSignal;
  /** Called once per hostile request or connection, when its outcome is known. */
  onOutcome(outcome: AttackOutcome): void;
  /**
   * Set when the attack runs on several worker threads (rig/engine/dos/attackThreads.ts): this thread
   * makes the starts k with k mod `count` = `index` of the one schedule, timed from the origin
   * (performance.now() time) that `ready()` resolves with once every thread has aimed its attack.
   */
  share?: { index: number; count: number; ready(): Promise<number> };
}

export interface AttackReport {
  /** Started, and settled with an outcome (equal once run() resolved). */
  started: number;
  settled: number;
  /**
   * Why part of the attack could not be aimed (no pattern in the schema, no replay plane, ...); the
   * scenario logs it.
   */
  notes: string[];
  /**
   * Of `settled`: requests/connections ended by the abort before their outcome was known (no
   * onOutcome call for them).
   */
  aborted?: number;
}

export interface Attack<P extends object = Record<string, number | string | boolean>> {
  /** kebab-case, unique: `slowloris`, `oversized-answer`, ... */
  name: string;
  /** The scenario family it belongs to: payloads, answers, malformed, slow, connections, streams. */
  family: 'payloads' | 'answers' | 'malformed' | 'slow' | 'connections' | 'streams';
  description: string;
  /**
   * What the agent should do with it, in one line (`413 before the body is read`, `cut within the
   * headers timeout`).
   */
  expected: string;
  defaults: P;
  /**
   * Runs the attack on the schedule; resolves once every started request/connection has settled
   * (within the schedule's duration plus the attack's own hold bound), or at once after abort.
   * Throws only for a misuse (non-loopback target, bad params).
   */
  run(target: AttackTarget, params: P, schedule: AttackSchedule): Promise<AttackReport>;
}
