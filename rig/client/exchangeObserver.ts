// What whoever watches a client's traffic is told (live metrics, `--metrics-port`): each exchange as
// it ends, with its operation and bytes, and each hitl-prompt/v1 answer classified. Below the client
// and its calls (a2aClient.ts, answerCalls.ts, streamCalls.ts), so they and the metrics share it.
import type { AnswerOutcome } from './answerOutcome.ts';
import type { ByteTally } from './byteTally.ts';

/** How an exchange ended: a result, a JSON-RPC error, or no usable reply (transport or protocol failure). */
export type ExchangeEnd = 'ok' | 'rpc_error' | 'failed';

/**
 * What an observer learns of an exchange beside its method: the operation by its v1.0 name whatever
 * the wire's generation (`SendMessage` for v0.3's `message/send`), or `answer` (a hitl-prompt/v1
 * answer) or `decision` (an acceptance-criteria verdict); and its bytes so far. A stream's
 * `received` goes on growing after `exchange` as its events arrive (`stream` true).
 */
export interface ExchangeTraffic extends ByteTally {
  operation: string;
  stream?: boolean;
}

/** Watches a client's traffic (e.g. to count it for Prometheus); must return at once. */
export interface ExchangeObserver {
  /** Every JSON-RPC exchange, answers included; a stream ends here when its headers arrive. */
  exchange(method: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void;
  /** Every hitl-prompt/v1 answer, classified. */
  answer(outcome: AnswerOutcome): void;
  /** An exchange is about to be sent (one `exchange` call follows each): what is in flight now. */
  opening?(): void;
}
