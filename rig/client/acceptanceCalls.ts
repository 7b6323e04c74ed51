// The acceptance-criteria extension's calls, for either wire generation (the client puts messages
// on the wire in the agent's): the creating send with criteria, and the accept/reject decision.
// Every call activates the extension (`A2A-Extensions` lists ACCEPTANCE_URI beside what the client
// activates anyway, e.g. hitl-prompt/v1) unless the caller names the extensions itself, and may
// carry a bearer token (the agent authorizes decisions by it).
//
//   const sent = await client.acceptance.send(userMessage({ data: script }), { criteria: { maxRejections: 1 } });
//   if (sent.gate === 'absent') …                        // no echo: plain WORKING → COMPLETED, never wait
//   … wait until isPendingAcceptance(task) …
//   const outcome = await client.acceptance.decide(task.id, task.contextId, { action: 'accept' });
//   outcome.kind === 'applied' && outcome.state === 'TASK_STATE_COMPLETED'
import type { Decision } from '../protocol/acceptance.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';
import type { AgentDescription } from './agentDiscovery.ts';
import type { CallOptions, CallOutcome, SendOptions, SendResult, StreamOutcome } from './callOutcome.ts';
import { acceptanceSkipReason, type AcceptanceDeclaration, type AcceptanceNeeds } from './acceptanceDeclaration.ts';
import { gateOf, isPendingAcceptance, unlistedAcceptanceMessages, type AcceptanceGate } from './gateReading.ts';
import { decisionMessage, principalOf, withCriteria, type CriteriaOptions } from './acceptanceMessages.ts';
import {
  classifyDecision,
  decisionFailed,
  readAcceptanceError,
  type AcceptanceErrorFacts,
  type DecisionOutcome,
} from './decisionOutcome.ts';
import type { ExchangeMeta, RpcReply } from './transportTypes.ts';
import type { Message, StreamResponse, Task, TaskStatus } from '../protocol/a2aTypes.ts';
import type { OutgoingMessage } from './outgoingMessage.ts';
import type { RpcErrorBody } from './rpcReply.ts';
import { TransportError } from './transportError.ts';

export type AcceptanceSendOptions = SendOptions & CriteriaOptions;

export interface DecideOptions extends CallOptions {
  /** The feedback text (the message's text part, kept verbatim in the task's history). */
  feedback?: string;
  /**
   * Return at once (default true, like hitl answers): the reply is the task as the decision left
   * it. False lets a blocking agent hold the reply until the task settles again (a retry's new
   * attempt parks, or the task ends).
   */
  returnImmediately?: boolean;
}

/** The gate fact and, on a refusal, the error read as the extension's ('criteria-invalid' …). */
export interface GateFacts {
  /** 'absent' (no echo of ACCEPTANCE_URI): the client MUST NOT wait for a pending state. */
  gate: AcceptanceGate;
  refusal?: AcceptanceErrorFacts;
}

export type AcceptanceSendOutcome = CallOutcome<SendResult> & GateFacts;
export type AcceptanceStreamOutcome = StreamOutcome & GateFacts;

/** The calls of the rig's client (a2aClient.ts) the acceptance calls are made through. */
export interface AcceptanceCallsClient {
  readonly agent: AgentDescription;
  readonly activatedExtensions: readonly string[];
  send(message: OutgoingMessage, options?: SendOptions): Promise<CallOutcome<SendResult>>;
  sendStream(message: OutgoingMessage, options?: CallOptions): Promise<StreamOutcome>;
  sendForReply(
    message: OutgoingMessage,
    options?: SendOptions,
    operation?: 'SendMessage' | 'decision',
  ): Promise<RpcReply>;
}

/**
 * Reached as `client.acceptance` (so scenarios, which see the client only through the engine's
 * ScenarioContext, get the reading helpers here too, not by importing rig/client).
 */
export class AcceptanceCalls {
  constructor(private readonly client: AcceptanceCallsClient) {}

  /** What the agent's card declares of the extension. */
  get declaration(): AcceptanceDeclaration {
    return this.client.agent.acceptance;
  }

  /** Why a scenario needing `needs` cannot run against this agent; undefined when it can. */
  skipReason(needs: AcceptanceNeeds = {}): string | undefined {
    return acceptanceSkipReason(this.client.agent.acceptance, needs);
  }

  /** INPUT_REQUIRED with `{[PENDING_KEY]: true}` on the status message (gateReading.ts). */
  isPending(subject: Task | TaskStatus | StreamResponse | undefined): boolean {
    return isPendingAcceptance(subject);
  }

  /** Messages carrying one of the extension's keys without listing its URI in `extensions`; one line each. */
  unlisted(subject: Task | StreamResponse | Message): string[] {
    return unlistedAcceptanceMessages(subject);
  }

  /** The principal an agent derives from a bearer token (for `deciders`): sha256 hex, or `anonymous`. */
  principalOf(bearerToken?: string): string {
    return principalOf(bearerToken);
  }

  /** The extensions a call activates: the caller's, else the client's plus ACCEPTANCE_URI. */
  activation(options: CallOptions = {}): readonly string[] {
    if (options.extensions) return options.extensions;
    const own = this.client.activatedExtensions;
    return own.includes(ACCEPTANCE_URI) ? own : [...own, ACCEPTANCE_URI];
  }

  private facts(outcome: ({ ok: true } | { ok: false; error: RpcErrorBody }) & { meta: ExchangeMeta }): GateFacts {
    const facts: GateFacts = { gate: gateOf(outcome.meta) };
    if (!outcome.ok) facts.refusal = readAcceptanceError(outcome.error, outcome.meta.httpStatus);
    return facts;
  }

  /** The creating send (SendMessage / message/send) with `metadata[CRITERIA_KEY]` and the activation header. */
  async send(message: OutgoingMessage, options: AcceptanceSendOptions = {}): Promise<AcceptanceSendOutcome> {
    const { criteria, deciders, ...rest } = options;
    const outcome = await this.client.send(withCriteria(message, { criteria, deciders }), {
      ...rest,
      extensions: this.activation(rest),
    });
    return { ...outcome, ...this.facts(outcome) };
  }

  /**
   * The creating send as a stream (SendStreamingMessage / message/stream): the artifacts and the
   * pending status arrive on it.
   */
  async sendStream(
    message: OutgoingMessage,
    options: CallOptions & CriteriaOptions = {},
  ): Promise<AcceptanceStreamOutcome> {
    const { criteria, deciders, ...rest } = options;
    const outcome = await this.client.sendStream(withCriteria(message, { criteria, deciders }), {
      ...rest,
      extensions: this.activation(rest),
    });
    return { ...outcome, ...this.facts(outcome) };
  }

  /** Accept, or reject with a reason from REJECTION_REASONS (retry defaults to true at the agent). */
  decide(
    taskId: string,
    contextId: string | undefined,
    decision: Decision,
    options: DecideOptions = {},
  ): Promise<DecisionOutcome> {
    return this.decideRaw(taskId, contextId, decision, options);
  }

  /**
   * Sends any value as the decision (malformed and hostile ones included); classified like `decide`.
   * Never throws for what the agent does.
   */
  async decideRaw(
    taskId: string,
    contextId: string | undefined,
    decision: unknown,
    options: DecideOptions = {},
  ): Promise<DecisionOutcome> {
    const { feedback, returnImmediately, ...rest } = options;
    const message = decisionMessage(taskId, contextId, decision, feedback);
    const startedAt = performance.now();
    try {
      const reply = await this.client.sendForReply(
        message,
        { ...rest, returnImmediately: returnImmediately ?? true, extensions: this.activation(rest) },
        'decision',
      );
      return classifyDecision(reply);
    } catch (err) {
      if (err instanceof TransportError) return decisionFailed(err, startedAt);
      throw err;
    }
  }
}
