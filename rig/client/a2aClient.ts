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
import type { Generation, StreamResponse, Task } from '../protocol/a2aTypes.ts';
import { GuardedValidator } from '../protocol/guardedValidator.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { sendResultFromWire, taskFromWire } from '../protocol/wireInbound.ts';
import { discoverAgent, type AgentDescription } from './agentDiscovery.ts';
import { AcceptanceCalls } from './acceptanceCalls.ts';
import { AnswerCalls, type AnswerOptions } from './answerCalls.ts';
import type { AnswerOutcome } from './answerOutcome.ts';
import { ClientExchanges, operationName, type CallOperation } from './clientExchanges.ts';
import type { A2AClientOptions } from './clientOptions.ts';
import { EnvelopeGuard, type PromptCheck } from './envelopeGuard.ts';
import { EventHistory } from './eventHistory.ts';
import { JsonRpcTransport } from './jsonRpcTransport.ts';
import { transportFor } from './bindingTransport.ts';
import type { RpcReply } from './transportTypes.ts';
import type { OutgoingMessage } from './outgoingMessage.ts';
import { EventIntake } from './receivedEvents.ts';
import { endpointName, socketName } from './targetNames.ts';
import { ReplaySocket, type ReplayLimits } from './replaySocket.ts';
import { StreamCalls } from './streamCalls.ts';
import { TransportError } from './transportError.ts';
import { securityHint } from './securitySchemes.ts';
import type { CallOptions, CallOutcome, SendOptions, SendResult, StreamOutcome } from './callOutcome.ts';

export type { CallOptions, CallOutcome, SendOptions, SendResult, StreamOutcome } from './callOutcome.ts';

export type { A2AClientOptions } from './clientOptions.ts';

export class A2AClient {
  readonly history: EventHistory;
  readonly guard: EnvelopeGuard;
  readonly transport: JsonRpcTransport;
  private readonly intake: EventIntake;
  private readonly extensions: readonly string[];
  /** What every call goes through (clientExchanges.ts); the answers and streams are made through it. */
  private readonly exchanges: ClientExchanges;
  private readonly answers: AnswerCalls;
  private readonly streams: StreamCalls;

  private constructor(
    /** What discovery found; `agent.generation` is the generation this client speaks. */
    readonly agent: AgentDescription,
    transport: JsonRpcTransport,
    /** As given (a worker thread rebuilds the client from them: rig/load/workers/workerClient.ts). */
    readonly options: A2AClientOptions,
  ) {
    this.transport = transport;
    this.history = options.history ?? new EventHistory();
    this.guard = new EnvelopeGuard(options.validator ?? new GuardedValidator());
    this.intake = new EventIntake(this.history, this.guard);
    this.extensions = options.extensions ?? [HITL_PROMPT_URI];
    this.exchanges = new ClientExchanges({
      agent,
      transport,
      history: this.history,
      intake: this.intake,
      extensions: this.extensions,
      observer: options.observer,
      target: options.target,
    });
    this.answers = new AnswerCalls(this.exchanges);
    this.streams = new StreamCalls(this.exchanges);
  }

  /** Reads the agent card at `agentUrl` and returns a client for it; throws DiscoveryError. */
  static async open(agentUrl: string, options: A2AClientOptions = {}): Promise<A2AClient> {
    const transport = new JsonRpcTransport({
      connections: 1,
      limits: options.limits,
      credentials: options.credentials,
    });
    try {
      const agent = await discoverAgent(transport, agentUrl, {
        generation: options.generation,
        binding: options.binding,
      });
      return A2AClient.forAgent(agent, options);
    } finally {
      await transport.close();
    }
  }

  /** A client for an agent already described (e.g. a second client on the same agent). */
  static forAgent(agent: AgentDescription, options: A2AClientOptions = {}): A2AClient {
    const transport = transportFor(agent.binding, {
      connections: options.connections,
      limits: options.limits,
      describeUrl: endpointName(agent, options.target),
      credentials: options.credentials,
      activate: options.activate,
      refusalHint: securityHint(agent.card),
      onRefused: options.onRefused,
    });
    return new A2AClient(agent, transport, options);
  }

  /** The endpoint as messages name it (the target, and the proxy hop when there is one). */
  get endpoint(): string {
    return this.exchanges.endpoint;
  }

  /** The client's calls pass a proxy in front of the agent (the options named the target behind it). */
  get viaProxy(): boolean {
    return this.options.target !== undefined;
  }

  get generation(): Generation {
    return this.agent.generation;
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

  private async unary<T>(
    op: CallOperation,
    params: unknown,
    options: CallOptions,
    read: (result: unknown) => T,
    eventOf: (value: T) => StreamResponse,
    taskId?: string,
  ): Promise<CallOutcome<T>> {
    const exchanges = this.exchanges;
    const method = exchanges.method(op);
    const reply = await exchanges.observed(
      method,
      operationName(op),
      options,
      (o) => this.transport.call(this.agent.rpcUrl, method, params, exchanges.a2a(o), o),
      (r) => ({ end: r.ok ? 'ok' : 'rpc_error', latencyMs: r.meta.latencyMs }),
    );
    if (!reply.ok)
      return {
        ok: false,
        error: reply.error,
        meta: reply.meta,
        connectionId: exchanges.recordResponse(undefined, taskId),
      };
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
      connectionId: exchanges.recordResponse(event, taskId ?? ('task' in event ? event.task.id : undefined)),
    };
  }

  /** SendMessage / message/send. Throws TransportError only below JSON-RPC (bounds, connection, garbage). */
  send(message: OutgoingMessage, options: SendOptions = {}): Promise<CallOutcome<SendResult>> {
    const params = this.exchanges.sendParams(message, options);
    return this.unary('send', params, options, sendResultFromWire, (v) => v, message.taskId);
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
    const exchanges = this.exchanges;
    const method = exchanges.method('send');
    const reply = await exchanges.observed(
      method,
      operation,
      options,
      (o) => this.transport.call(this.agent.rpcUrl, method, exchanges.sendParams(message, o), exchanges.a2a(o), o),
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
    exchanges.recordResponse(event, message.taskId ?? (event && 'task' in event ? event.task.id : undefined));
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

  /** SendStreamingMessage / message/stream: the events until the task settles (the agent closes). */
  sendStream(message: OutgoingMessage, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.streams.sendStream(message, options);
  }

  /** SubscribeToTask / tasks/resubscribe: a snapshot, then live events until the task is terminal. */
  subscribe(taskId: string, options: CallOptions = {}): Promise<StreamOutcome> {
    return this.streams.subscribe(taskId, options);
  }

  /**
   * Sends a hitl-prompt/v1 answer and classifies the reply (accepted / conflict / invalid / error).
   * Never throws for what the agent does: transport failures come back as kind 'error'. By default
   * the send returns immediately (the task's resume is observed elsewhere, e.g. on a stream).
   */
  answer(taskId: string, promptId: string, payload: unknown, options: AnswerOptions = {}): Promise<AnswerOutcome> {
    return this.answers.answer(taskId, promptId, payload, options);
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
    options: AnswerOptions = {},
  ): Promise<AnswerOutcome> {
    return this.answers.answerRaw(taskId, promptId, payloadJson, options);
  }

  /** Opens the replay plane for a task from `since` (default 0: every stored event). */
  async replay(
    taskId: string,
    options: { since?: number; limits?: Partial<ReplayLimits>; extensions?: readonly string[] } = {},
  ): Promise<ReplaySocket> {
    const socket = await ReplaySocket.open({
      // The replay plane is HTTP: on the gRPC binding, at the server that served the card.
      agentUrl: this.agent.binding === 'GRPC' ? this.agent.cardUrl : this.agent.rpcUrl,
      taskId,
      since: options.since,
      generation: this.generation,
      extensions: options.extensions ?? this.extensions,
      limits: { ...this.options.replayLimits, ...options.limits },
      intake: this.intake,
      history: this.history,
      describeUrl: socketName(this.options.target),
      access: this.options,
    });
    this.exchanges.track(socket, socket.ended);
    return socket;
  }

  /**
   * From now on, every call that names no signal of its own is aborted by `signal` (a scenario's
   * clients by the scenario's end); a call's explicit signal still wins. Not an A2AClientOptions
   * field: those are handed to worker threads, and a signal cannot cross.
   */
  abortWith(signal: AbortSignal): this {
    this.exchanges.defaultSignal = signal;
    return this;
  }

  /** The signal given to `abortWith`, for a call made past the client's own methods (its transport). */
  get defaultSignal(): AbortSignal | undefined {
    return this.exchanges.defaultSignal;
  }

  /** The S-2 check of the prompt envelope a task's status carries; undefined if it carries none. */
  promptOf(task: Task): PromptCheck | undefined {
    return this.guard.fromStatus(task.status);
  }

  /** Closes every stream and socket this client opened and releases its connections. */
  async close(): Promise<void> {
    await this.exchanges.close();
  }
}
