// What a client of the run tells as its exchanges end (rig/client ExchangeObserver): the run's
// observer and the scenario's traffic record, chosen in one place (Environment.exchangeObserver).
import type { AnswerOutcome, ExchangeEnd, ExchangeObserver, ExchangeTraffic } from '../client/index.ts';
import type { RunObserver } from '../results/runObserver.ts';

/** The run's observer as a client's ExchangeObserver; undefined when it hears neither exchanges nor answers. */
export function exchangesTo(run: RunObserver | undefined): ExchangeObserver | undefined {
  if (!run?.onExchange && !run?.onAnswer) return undefined;
  return {
    exchange: (method, end, latencyMs) => run.onExchange?.(method, end, latencyMs),
    answer: (outcome) => run.onAnswer?.(outcome),
  };
}

/** Tells two observers of a client everything, in order. */
export class BothObservers implements ExchangeObserver {
  constructor(
    private readonly a: ExchangeObserver,
    private readonly b: ExchangeObserver,
  ) {}

  exchange(method: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void {
    this.a.exchange(method, end, latencyMs, traffic);
    this.b.exchange(method, end, latencyMs, traffic);
  }

  answer(outcome: AnswerOutcome): void {
    this.a.answer(outcome);
    this.b.answer(outcome);
  }

  opening(): void {
    this.a.opening?.();
    this.b.opening?.();
  }
}
