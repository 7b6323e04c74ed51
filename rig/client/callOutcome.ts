// What a call of the rig's A2A client (a2aClient.ts) takes and what it returns, apart from the
// client itself, so code that makes calls through it (acceptanceCalls.ts) need not import it.
import type { Message, Task } from '../protocol/a2aTypes.ts';
import type { ExchangeMeta, ExchangeOptions } from './transportTypes.ts';
import type { RpcErrorBody } from './rpcReply.ts';
import type { TaskEventStream } from './taskEventStream.ts';

export interface CallOptions extends ExchangeOptions {
  /** Extensions to activate on this call instead of the client's ([] activates none). */
  extensions?: readonly string[];
  /** Sent as `Authorization: Bearer <token>` on this call (acceptance decisions are authorized by it). */
  bearerToken?: string;
  /**
   * Streams only: how long to watch for a refusal framed as the first event (default
   * STREAM_REFUSAL_PEEK_MS, streamCalls.ts).
   */
  refusalPeekMs?: number;
  /**
   * Streams only: hand the stream over after this long even if the agent has sent no response
   * headers yet (SDKs that send them only with the first event send nothing while there is nothing
   * to say); its events follow when they come. Unset: wait for the headers (headersTimeoutMs).
   */
  headerWaitMs?: number;
}

export interface SendOptions extends CallOptions {
  /** Return at once instead of when the task settles (v1.0 `returnImmediately`, v0.3 `blocking: false`). */
  returnImmediately?: boolean;
  historyLength?: number;
}

/** A unary call's outcome: the value or the JSON-RPC error, with HTTP status, echo and latency. */
export type CallOutcome<T> = ({ ok: true; value: T } | { ok: false; error: RpcErrorBody }) & {
  meta: ExchangeMeta;
  /** The history connection the response was recorded under (`response-N`). */
  connectionId: string;
};

/**
 * A streaming call's outcome: the open stream, or the JSON-RPC error the agent answered instead,
 * whether as a plain JSON reply or (`inStream`) as the first frame of an event stream.
 */
export type StreamOutcome = (
  { ok: true; stream: TaskEventStream } | { ok: false; error: RpcErrorBody; inStream?: boolean }
) & { meta: ExchangeMeta };

export type SendResult = { task: Task } | { message: Message };
