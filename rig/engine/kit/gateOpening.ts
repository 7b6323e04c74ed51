// What opening a gated task came to (acceptanceMoves.openGate): its own module so the scenario
// context's interface can name it without importing the moves, which take that context.
import type { Task } from '../../protocol/a2aTypes.ts';
import type { AcceptanceErrorFacts } from '../../client/index.ts';

export type GateOpening =
  /** Parked pending acceptance; `echoed` says whether the creating reply echoed the extension. */
  | { kind: 'pending'; task: Task; echoed: boolean; latencyMs: number }
  /** The agent refused the creating request (criteria invalid, say): no task. */
  | {
      kind: 'refused';
      refusal: AcceptanceErrorFacts | undefined;
      code: number;
      message: string;
      httpStatus: number | undefined;
      latencyMs: number;
    }
  /** A task that did not park pending acceptance (within SETTLE_MS): where it got to. */
  | { kind: 'not-pending'; task: Task; echoed: boolean; latencyMs: number }
  | { kind: 'message'; echoed: boolean; latencyMs: number };
