// The rig's A2A client: one agent, either wire generation (from its card, or chosen), JSON-RPC over
// a keep-alive pool, SSE streams, the WebSocket replay plane, the hitl-prompt/v1 activation header.
// Everything it receives is canonical (v1.0 shapes), recorded in the event history with a monotonic
// time, and every prompt envelope in it is checked under S-2 before anyone may answer it. Every
// exchange is bounded in time and bytes: a hostile agent can fail a call, not hang the rig.
//
//   const client = await A2AClient.open('http://127.0.0.1:8080');     // reads the card
//   const sent = await client.send(userMessage({ text: 'hi' }));
//   if (sent.ok && 'task' in sent.value) {
//     const prompt = client.promptOf(sent.value.task);                 // S-2 checked
//     if (prompt?.ok) await client.answer(sent.value.task.id, prompt.envelope.prompt_id, { approved: true });
//   }
//   await client.close();
import { randomUUID } from 'node:crypto';
import type { Generation, Operation, StreamResponse, Task } from '../protocol/a2aTypes.ts';
import { METHOD_NAMES } from '../protocol/a2aTypes.ts';
import { GuardedValidator } from '../protocol/guardedValidator.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { messageOnWire } from '../protocol/wireGenerations.ts';
import { sendResultFromWire, taskFromWire } from '../protocol/wireInbound.ts';
import { discoverAgent, type AgentDescription } from './agentDiscovery.ts';
import { AcceptanceCalls } from './acceptanceCalls.ts';
import { answerFailed, classifyAnswer, type AnswerOutcome } from './answerOutcome.ts';
import { EnvelopeGuard, type PromptCheck } from './envelopeGuard.ts';
import { EventHistory } from './eventHistory.ts';
import type { ExchangeEnd, ExchangeObserver, ExchangeTraffic } from './exchangeObserver.ts';
import { assertBearerToken, type A2AHeaders } from './a2aHeaders.ts';
import { JsonRpcTransport } from './jsonRpcTransport.ts';
import { type ExchangeOptions, type RpcReply, type TransportLimits } from './transportTypes.ts';
import { answerMessage, completeMessage, type OutgoingMessage } from './outgoingMessage.ts';
import { EventIntake } from './receivedEvents.ts';
import { endpointName, socketName, type ProxiedTarget } from './targetNames.ts';
import { ReplaySocket, type ReplayLimits } from './replaySocket.ts';
import { TaskEventStream } from './taskEventStream.ts';
import { TransportError } from './transportError.ts';
import type { CallOptions, CallOutcome, SendOptions, SendResult, StreamOutcome } from './callOutcome.ts';

export type { CallOptions, CallOutcome, SendOptions, SendResult, StreamOutcome } from './callOutcome.ts';

export interface A2AClientOptions {
  /** 'auto' (default) reads it from the card; '1.0' or '0.3' forces it (`--a2a-version`). */
  generation?: Generation | 'auto';
  /** Extensions activated on every request (default: hitl-prompt/v1); per-call `extensions` override. */
  extensions?: readonly string[];
  /** Keep-alive connections per origin (default 32). */
  connections?: number;
  limits?: Partial<TransportLimits>;
  replayLimits?: Partial<ReplayLimits>;
  /** Share one history between clients; by default each client has its own. */
  history?: EventHistory;
  /** Share one validator (and its compiled-schema cache); by default each client has its own. */
  validator?: GuardedValidator;
  /** Told of every exchange as it ends (live metrics, `--metrics-port`). */
  observer?: ExchangeObserver;
  /**
   * When `agent.rpcUrl` is a proxy in front of the agent: the endpoint the user's target names and
   * the hop, so errors name what the user gave, e.g. `{rpcUrl: 'http://127.0.0.1:8765/', via: 'fault proxy 127.0.0.1:39019'}`.
   */
  target?: ProxiedTarget;
}

/** The operations this client calls (ListTasks goes through the transport: engine/taskListing.ts). */
type CallOperation = Exclude<Operation, 'list'>;

/** The operation's v1.0 name, whatever the generation on the wire. */
function operationName(op: CallOperation): string {
  return METHOD_NAMES['1.0'][op]!;
}

/**
 * How long a new stream is watched for a refusal framed as its first event before it is handed
 * over. a2a-sdk 0.3.x answers tasks/resubscribe on a parked task with HTTP 200, text/event-stream
 * and a JSON-RPC error (-32001) as the only frame, right behind the headers. A stream whose first
 * frame is an event is handed over as soon as that frame arrives, so the peek costs nothing then;
 * an error frame arriving later still ends the stream with its code (`StreamEnd` 'rpc-error').
 */
export const STREAM_REFUSAL_PEEK_MS = 1_000;

export class A2AClient {
  readonly history: EventHistory;
  readonly guard: EnvelopeGuard;
  readonly transport: JsonRpcTransport;
  private readonly intake: EventIntake;
  private readonly extensions: readonly string[];
  private readonly open = new Set<{ close(): Promise<unknown> }>();

  private constructor(
    /** What discovery found; `agent.generation` is the generation this client speaks. */
    readonly agent: AgentDescription,
    transport: JsonRpcTransport,
    private readonly options: A2AClientOptions,
  ) {
    this.transport = transport;
    this.history = options.history ?? new EventHistory();
    this.guard = new EnvelopeGuard(options.validator ?? new GuardedValidator());
    this.intake = new EventIntake(this.history, this.guard);
    this.extensions = options.extensions ?? [HITL_PROMPT_URI];
  }

  /** Reads the agent card at `agentUrl` and returns a client for it; throws DiscoveryError. */
  static async open(agentUrl: string, options: A2AClientOptions = {}): Promise<A2AClient> {
    const transport = new JsonRpcTransport({ connections: options.connections, limits: options.limits });
    try {
      const agent = await discoverAgent(transport, agentUrl, { generation: options.generation });
      return new A2AClient(agent, transport, options);
    } catch (err) {
      await transport.close();
      throw err;
    }
  }

  /** A client for an agent already described (e.g. a second client on the same agent). */
  static forAgent(agent: AgentDescription, options: A2AClientOptions = {}): A2AClient {
    const transport = new JsonRpcTransport({
      connections: options.connections,
      limits: options.limits,
      describeUrl: endpointName(agent, options.target),
    });
    return new A2AClient(agent, transport, options);
  }

  /** The endpoint as messages name it (the target, and the proxy hop when there is one). */
  get endpoint(): string {
    return endpointName(this.agent, this.options.target)(this.agent.rpcUrl);
  }

  get generation(): Generation {
    return this.agent.generation;
  }

  private a2a(options: CallOptions): A2AHeaders {
    if (options.bearerToken !== undefined) assertBearerToken(options.bearerToken);
    return {
      generation: this.agent.generation,
      extensions: options.extensions ?? this.extensions,
      ...(options.bearerToken !== undefined ? { bearerToken: options.bearerToken } : {}),
    };
  }

  /** The extensions this client activates when a call names none. */
  get activatedExtensions(): readonly string[] {
    return this.extensions;
  }

  private acceptanceCalls: AcceptanceCalls | undefined;

  /** The acceptance-criteria extension's calls: send with criteria, decide (acceptanceCalls.ts). */
  get acceptance(): AcceptanceCalls {
    return (this.acceptanceCalls ??= new AcceptanceCalls(this));
  }

  private method(op: CallOperation): string {
    return METHOD_NAMES[this.agent.generation][op]!;
  }

  private sendParams(message: OutgoingMessage, options: SendOptions): Record<string, unknown> {
    const configuration: Record<string, unknown> = {};
    if (options.returnImmediately !== undefined) {
      if (this.generation === '1.0') configuration.returnImmediately = options.returnImmediately;
      else configuration.blocking = !options.returnImmediately;
    }
    if (options.historyLength !== undefined) configuration.historyLength = options.historyLength;
    return {
      message: messageOnWire(completeMessage(message), this.generation),
      ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    };
  }

  /** Records a unary response's event in the history under its own `response-N` connection. */
  private recordResponse(event: StreamResponse | undefined, taskId: string | undefined): string {
    const connectionId = this.history.openConnection('response', taskId);
    if (event) this.intake.take(connectionId, 'response', event);
    this.history.closeConnection(connectionId, 'response');
    return connectionId;
  }

  /**
   * Runs one exchange, telling the observer (when there is one) that it opens and how it ended; the
   * exchange is given the options to call the transport with (a byte tally added when observed).
   */
  private async observed<R, O extends ExchangeOptions>(
    method: string,
    operation: string,
    options: O,
    exchange: (options: O) => Promise<R>,
    endOf: (reply: R) => { end: ExchangeEnd; latencyMs: number; stream?: boolean },
  ): Promise<R> {
    const observer = this.options.observer;
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

  private async unary<T>(
    op: CallOperation,
    params: unknown,
    options: CallOptions,
    read: (result: unknown) => T,
    eventOf: (value: T) => StreamResponse,
    taskId?: string,
  ): Promise<CallOutcome<T>> {
    const method = this.method(op);
    const reply = await this.observed(
      method,
      operationName(op),
      options,
      (o) => this.transport.call(this.agent.rpcUrl, method, params, this.a2a(o), o),
      (r) => ({ end: r.ok ? 'ok' : 'rpc_error', latencyMs: r.meta.latencyMs }),
    );
    if (!reply.ok)
      return { ok: false, error: reply.error, meta: reply.meta, connectionId: this.recordResponse(undefined, taskId) };
    let value: T;
    try {
      value = read(reply.result);
    } catch (err) {
      throw new TransportError(
        'protocol',
        `${method} result from ${this.endpoint} is not A2A: ${(err as Error).message}`,
        reply.meta.httpStatus,
      );
    }
    const event = eventOf(value);
    return {
      ok: true,
      value,
      meta: reply.meta,
      connectionId: this.recordResponse(event, taskId ?? ('task' in event ? event.task.id : undefined)),
    };
  }

  /** SendMessage / message/send. Throws TransportError only below JSON-RPC (bounds, connection, garbage). */
  send(message: OutgoingMessage, options: SendOptions = {}): Promise<CallOutcome<SendResult>> {
    return this.unary('send', this.sendParams(message, options), options, sendResultFromWire, (v) => v, message.taskId);
  }

  /**
   * SendMessage / message/send with the reply handed back unclassified, for an extension that reads
   * its own errors (acceptance decisions). A Task or Message result is recorded in the history; the
   * observer hears of the exchange, as `operation` (`decision` for an acceptance verdict). Throws
   * TransportError below JSON-RPC.
   */
  async sendForReply(
    message: OutgoingMessage,
    options: SendOptions = {},
    operation: 'SendMessage' | 'decision' = 'SendMessage',
  ): Promise<RpcReply> {
    const method = this.method('send');
    const reply = await this.observed(
      method,
      operation,
      options,
      (o) => this.transport.call(this.agent.rpcUrl, method, this.sendParams(message, o), this.a2a(o), o),
      (r) => ({ end: r.ok ? 'ok' : 'rpc_error', latencyMs: r.meta.latencyMs }),
    );
    let event: SendResult | undefined;
    if (reply.ok) {
      try {
        event = sendResultFromWire(reply.result);
      } catch {
        // Not A2A: the caller's classification says so; there is nothing to record.
      }
    }
    this.recordResponse(event, message.taskId ?? (event && 'task' in event ? event.task.id : undefined));
    return reply;
  }

  /** GetTask / tasks/get. */
  getTask(taskId: string, options: CallOptions & { historyLength?: number } = {}): Promise<CallOutcome<Task>> {
    const params = {
      id: taskId,
      ...(options.historyLength !== undefined ? { historyLength: options.historyLength } : {}),
    };
    return this.unary(
      'get',
      params,
      options,
      (r) => taskFromWire(r),
      (task) => ({ task }),
      taskId,
    );
  }

  /** CancelTask / tasks/cancel. */
  cancelTask(taskId: string, options: CallOptions = {}): Promise<CallOutcome<Task>> {
    return this.unary(
      'cancel',
      { id: taskId },
      options,
      (r) => taskFromWire(r),
      (task) => ({ task }),
      taskId,
    );
  }

  private streamCall(
    op: CallOperation,
    params: unknown,
    options: CallOptions,
    taskId?: string,
  ): Promise<StreamOutcome> {
    const method = this.method(op);
    return this.observed(
      method,
      operationName(op),
      options,
      (o) => this.openStream(method, params, o, taskId),
      (o) => ({ end: o.ok ? 'ok' : 'rpc_error', latencyMs: o.meta.latencyMs, stream: o.ok }),
    );
  }

  /** Opens a stream; a refusal, framed as plain JSON or as the stream's first frame, comes back as `{ok:false}`. */
  private async openStream(
    method: string,
    params: unknown,
    options: CallOptions,
    taskId?: string,
  ): Promise<StreamOutcome> {
    const reply = await this.transport.stream(this.agent.rpcUrl, method, params, this.a2a(options), options);
    if (reply.kind === 'json') {
      if (!reply.reply.ok) return { ok: false, error: reply.reply.error, meta: reply.reply.meta };
      throw new TransportError(
        'protocol',
        `${method} from ${this.endpoint} answered a stream request with a plain JSON-RPC result`,
        reply.reply.meta.httpStatus,
      );
    }
    const stream = new TaskEventStream(
      reply,
      this.intake,
      this.history,
      `${method} stream from ${this.endpoint}`,
      taskId,
    );
    this.track(stream, stream.ended);
    await stream.firstFrame(options.refusalPeekMs ?? STREAM_REFUSAL_PEEK_MS);
    const end = stream.end;
    if (end?.reason === 'rpc-error' && stream.events.length === 0)
      return { ok: false, error: end.error, inStream: true, meta: reply.meta };
    return { ok: true, stream, meta: reply.meta };
  }

  /** SendStreamingMessage / message/stream: the events until the task settles (the agent closes). */
  sendStream(message: OutgoingMessage, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.streamCall('stream', this.sendParams(message, {}), options, message.taskId);
  }

  /** SubscribeToTask / tasks/resubscribe: a snapshot, then live events until the task is terminal. */
  subscribe(taskId: string, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.streamCall('subscribe', { id: taskId }, options, taskId);
  }

  /**
   * Sends a hitl-prompt/v1 answer and classifies the reply (accepted / conflict / invalid / error).
   * Never throws for what the agent does: transport failures come back as kind 'error'. By default
   * the send returns immediately (the task's resume is observed elsewhere, e.g. on a stream).
   */
  answer(
    taskId: string,
    promptId: string,
    payload: unknown,
    options: SendOptions & { contextId?: string } = {},
  ): Promise<AnswerOutcome> {
    const message = answerMessage(taskId, promptId, payload, { contextId: options.contextId });
    return this.sendAnswer(
      taskId,
      promptId,
      JSON.stringify(this.sendParams(message, { returnImmediately: true, ...options })),
      options,
    );
  }

  /**
   * `answer` with the payload given as JSON text, sent verbatim where the payload goes: for payloads
   * JSON.stringify cannot serialize (nested 100,000 levels deep, it overflows the stack). The text
   * is not parsed here; the caller vouches that it is one JSON value.
   */
  answerRaw(
    taskId: string,
    promptId: string,
    payloadJson: string,
    options: SendOptions & { contextId?: string } = {},
  ): Promise<AnswerOutcome> {
    const slot = `a2a-rig:raw-payload:${randomUUID()}`;
    const message = answerMessage(taskId, promptId, slot, { contextId: options.contextId });
    const params = JSON.stringify(this.sendParams(message, { returnImmediately: true, ...options }));
    return this.sendAnswer(
      taskId,
      promptId,
      params.replaceAll(JSON.stringify(slot), () => payloadJson),
      options,
    );
  }

  private async sendAnswer(
    taskId: string,
    promptId: string,
    paramsJson: string,
    options: SendOptions,
  ): Promise<AnswerOutcome> {
    const observer = this.options.observer;
    const traffic: ExchangeTraffic | undefined = observer ? { operation: 'answer', sent: 0, received: 0 } : undefined;
    observer?.opening?.();
    const startedAt = performance.now();
    try {
      const reply = await this.transport.callRaw(
        this.agent.rpcUrl,
        this.method('send'),
        paramsJson,
        this.a2a(options),
        traffic ? { ...options, tally: traffic } : options,
      );
      const outcome = classifyAnswer(reply, promptId);
      this.recordResponse(outcome.result, taskId);
      return this.answered(outcome, traffic);
    } catch (err) {
      if (err instanceof TransportError) return this.answered(answerFailed(err, startedAt), traffic);
      // Not the agent's doing (e.g. a bearer token refused before sending): the exchange still ends
      // for whoever counts it open.
      observer?.exchange(this.method('send'), 'failed', performance.now() - startedAt, traffic);
      throw err;
    }
  }

  private answered(outcome: AnswerOutcome, traffic: ExchangeTraffic | undefined): AnswerOutcome {
    const observer = this.options.observer;
    if (observer) {
      observer.exchange(
        this.method('send'),
        outcome.kind === 'accepted' ? 'ok' : outcome.rpcCode !== undefined ? 'rpc_error' : 'failed',
        outcome.latencyMs,
        traffic,
      );
      observer.answer(outcome);
    }
    return outcome;
  }

  /** Opens the replay plane for a task from `since` (default 0: every stored event). */
  async replay(
    taskId: string,
    options: { since?: number; limits?: Partial<ReplayLimits>; extensions?: readonly string[] } = {},
  ): Promise<ReplaySocket> {
    const socket = await ReplaySocket.open({
      agentUrl: this.agent.rpcUrl,
      taskId,
      since: options.since,
      generation: this.generation,
      extensions: options.extensions ?? this.extensions,
      limits: { ...this.options.replayLimits, ...options.limits },
      intake: this.intake,
      history: this.history,
      describeUrl: socketName(this.options.target),
    });
    this.track(socket, socket.ended);
    return socket;
  }

  /** The S-2 check of the prompt envelope a task's status carries; undefined if it carries none. */
  promptOf(task: Task): PromptCheck | undefined {
    return this.guard.fromStatus(task.status);
  }

  private track(closable: { close(): Promise<unknown> }, ended: Promise<unknown>): void {
    this.open.add(closable);
    void ended.then(() => this.open.delete(closable));
  }

  /** Closes every stream and socket this client opened and releases its connections. */
  async close(): Promise<void> {
    await Promise.all([...this.open].map((c) => c.close()));
    await this.transport.close();
  }
}
