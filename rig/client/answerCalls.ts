// The client's hitl-prompt/v1 answers (a2aClient.ts hands them on): the answer message sent with
// return-immediately, its reply classified (answerOutcome.ts) and recorded in the client's history,
// and the observer told of the exchange and of the outcome. On the open model's hot path: the params
// go out as JSON text (callRaw), and nothing is made per answer beyond the message, its params and,
// only when observed, the byte tally.
import { randomUUID } from 'node:crypto';
import { answerFailed, classifyAnswer, type AnswerOutcome } from './answerOutcome.ts';
import type { SendOptions } from './callOutcome.ts';
import type { ClientExchanges } from './clientExchanges.ts';
import type { ExchangeTraffic } from './exchangeObserver.ts';
import { answerMessage } from './outgoingMessage.ts';
import { TransportError } from './transportError.ts';

export type AnswerOptions = SendOptions & { contextId?: string };

export class AnswerCalls {
  constructor(private readonly exchanges: ClientExchanges) {}

  /** See A2AClient.answer. */
  answer(taskId: string, promptId: string, payload: unknown, options: AnswerOptions = {}): Promise<AnswerOutcome> {
    const message = answerMessage(taskId, promptId, payload, { contextId: options.contextId });
    return this.send(
      taskId,
      promptId,
      JSON.stringify(this.exchanges.sendParams(message, { returnImmediately: true, ...options })),
      options,
    );
  }

  /** See A2AClient.answerRaw. */
  answerRaw(
    taskId: string,
    promptId: string,
    payloadJson: string,
    options: AnswerOptions = {},
  ): Promise<AnswerOutcome> {
    const slot = `a2a-rig:raw-payload:${randomUUID()}`;
    const message = answerMessage(taskId, promptId, slot, { contextId: options.contextId });
    const params = JSON.stringify(this.exchanges.sendParams(message, { returnImmediately: true, ...options }));
    return this.send(
      taskId,
      promptId,
      params.replaceAll(JSON.stringify(slot), () => payloadJson),
      options,
    );
  }

  private async send(
    taskId: string,
    promptId: string,
    paramsJson: string,
    options: SendOptions,
  ): Promise<AnswerOutcome> {
    const exchanges = this.exchanges;
    const observer = exchanges.observer;
    const traffic: ExchangeTraffic | undefined = observer ? { operation: 'answer', sent: 0, received: 0 } : undefined;
    observer?.opening?.();
    const startedAt = performance.now();
    try {
      const reply = await exchanges.transport.callRaw(
        exchanges.agent.rpcUrl,
        exchanges.method('send'),
        paramsJson,
        exchanges.a2a(options),
        exchanges.signalled(traffic ? { ...options, tally: traffic } : options),
      );
      const outcome = classifyAnswer(reply, promptId);
      exchanges.recordResponse(outcome.result, taskId);
      return this.answered(outcome, traffic);
    } catch (err) {
      if (err instanceof TransportError) return this.answered(answerFailed(err, startedAt), traffic);
      // Not the agent's doing (e.g. a bearer token refused before sending): the exchange still ends
      // for whoever counts it open.
      observer?.exchange(exchanges.method('send'), 'failed', performance.now() - startedAt, traffic);
      throw err;
    }
  }

  private answered(outcome: AnswerOutcome, traffic: ExchangeTraffic | undefined): AnswerOutcome {
    const observer = this.exchanges.observer;
    if (observer) {
      observer.exchange(
        this.exchanges.method('send'),
        outcome.kind === 'accepted' ? 'ok' : outcome.rpcCode !== undefined ? 'rpc_error' : 'failed',
        outcome.latencyMs,
        traffic,
      );
      observer.answer(outcome);
    }
    return outcome;
  }
}
