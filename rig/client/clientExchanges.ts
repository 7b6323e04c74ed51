// What every call of one rig client goes through, shared by the client (a2aClient.ts) and the calls
// it hands on (answerCalls.ts, streamCalls.ts): the agent and its transport, the method in the
// agent's generation, the A2A headers and send params of a call, the observer told of each exchange,
// the history a reply is recorded in, and the streams and sockets left open until the client closes.
import type { Operation, StreamResponse } from '../protocol/a2aTypes.ts';
import { METHOD_NAMES } from '../protocol/a2aTypes.ts';
import { messageOnWire } from '../protocol/wireGenerations.ts';
import type { AgentDescription } from './agentDiscovery.ts';
import { assertBearerToken, type A2AHeaders } from './a2aHeaders.ts';
import type { CallOptions, SendOptions } from './callOutcome.ts';
import type { EventHistory } from './eventHistory.ts';
import type { ExchangeEnd, ExchangeObserver, ExchangeTraffic } from './exchangeObserver.ts';
import type { JsonRpcTransport } from './jsonRpcTransport.ts';
import { completeMessage, type OutgoingMessage } from './outgoingMessage.ts';
import type { EventIntake } from './receivedEvents.ts';
import { endpointName, type ProxiedTarget } from './targetNames.ts';
import type { ExchangeOptions } from './transportTypes.ts';

/** The operations the client calls (ListTasks goes through the transport: engine/kit/taskListing.ts). */
export type CallOperation = Exclude<Operation, 'list'>;

/** The operation's v1.0 name, whatever the generation on the wire. */
export function operationName(op: CallOperation): string {
  return METHOD_NAMES['1.0'][op]!;
}

/** What one client's exchanges share; made once with the client. */
export interface ClientParts {
  /** What discovery found; `agent.generation` is the generation the client speaks. */
  agent: AgentDescription;
  transport: JsonRpcTransport;
  history: EventHistory;
  intake: EventIntake;
  /** Activated on every call that names none. */
  extensions: readonly string[];
  observer: ExchangeObserver | undefined;
  target: ProxiedTarget | undefined;
}

export class ClientExchanges {
  readonly agent: AgentDescription;
  readonly transport: JsonRpcTransport;
  readonly history: EventHistory;
  readonly intake: EventIntake;
  readonly extensions: readonly string[];
  readonly observer: ExchangeObserver | undefined;
  private readonly target: ProxiedTarget | undefined;
  private readonly open = new Set<{ close(): Promise<unknown> }>();
  /** Taken by every call that names no signal of its own (A2AClient.abortWith). */
  defaultSignal: AbortSignal | undefined;

  constructor(parts: ClientParts) {
    this.agent = parts.agent;
    this.transport = parts.transport;
    this.history = parts.history;
    this.intake = parts.intake;
    this.extensions = parts.extensions;
    this.observer = parts.observer;
    this.target = parts.target;
  }

  /** The endpoint as messages name it (the target, and the proxy hop when there is one). */
  get endpoint(): string {
    return endpointName(this.agent, this.target)(this.agent.rpcUrl);
  }

  a2a(options: CallOptions): A2AHeaders {
    if (options.bearerToken !== undefined) assertBearerToken(options.bearerToken);
    return {
      generation: this.agent.generation,
      extensions: options.extensions ?? this.extensions,
      ...(options.bearerToken !== undefined ? { bearerToken: options.bearerToken } : {}),
    };
  }

  method(op: CallOperation): string {
    return METHOD_NAMES[this.agent.generation][op]!;
  }

  sendParams(message: OutgoingMessage, options: SendOptions): Record<string, unknown> {
    const configuration: Record<string, unknown> = {};
    if (options.returnImmediately !== undefined) {
      if (this.agent.generation === '1.0') configuration.returnImmediately = options.returnImmediately;
      else configuration.blocking = !options.returnImmediately;
    }
    if (options.historyLength !== undefined) configuration.historyLength = options.historyLength;
    return {
      message: messageOnWire(completeMessage(message), this.agent.generation),
      ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    };
  }

  /** The call's options with the client's default signal when the call names none: an explicit signal wins. */
  signalled<O extends ExchangeOptions>(options: O): O {
    return options.signal || !this.defaultSignal ? options : { ...options, signal: this.defaultSignal };
  }

  /** Records a unary response's event in the history under its own `response-N` connection. */
  recordResponse(event: StreamResponse | undefined, taskId: string | undefined): string {
    const connectionId = this.history.openConnection('response', taskId);
    if (event) this.intake.take(connectionId, 'response', event);
    this.history.closeConnection(connectionId, 'response');
    return connectionId;
  }

  /**
   * Runs one exchange, telling the observer (when there is one) that it opens and how it ended; the
   * exchange is given the options to call the transport with (a byte tally added when observed).
   */
  async observed<R, O extends ExchangeOptions>(
    method: string,
    operation: string,
    options: O,
    exchange: (options: O) => Promise<R>,
    endOf: (reply: R) => { end: ExchangeEnd; latencyMs: number; stream?: boolean },
  ): Promise<R> {
    options = this.signalled(options);
    const observer = this.observer;
    if (!observer) return exchange(options);
    const traffic: ExchangeTraffic = { operation, sent: 0, received: 0 };
    observer.opening?.();
    const startedAt = performance.now();
    try {
      const reply = await exchange({ ...options, tally: traffic });
      const { end, latencyMs, stream } = endOf(reply);
      if (stream) traffic.stream = true;
      observer.exchange(method, end, latencyMs, traffic);
      return reply;
    } catch (err) {
      observer.exchange(method, 'failed', performance.now() - startedAt, traffic);
      throw err;
    }
  }

  /** Keeps a stream or socket until it ends, so `close` can close it. */
  track(closable: { close(): Promise<unknown> }, ended: Promise<unknown>): void {
    this.open.add(closable);
    void ended.then(() => this.open.delete(closable));
  }

  /** Closes every stream and socket tracked and releases the transport's connections. */
  async close(): Promise<void> {
    await Promise.all([...this.open].map((c) => c.close()));
    await this.transport.close();
  }
}
