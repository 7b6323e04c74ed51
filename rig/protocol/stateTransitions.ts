// The state transitions a run of stream events shows, whatever shape carried them. A status update
// announces a transition each time (an agent that resumes twice says WORKING twice); a Task
// snapshot — which A2A streams may carry instead of status updates — says where the task is, so it
// is a transition only when its state differs from the last one known: a snapshot that repeats
// the state (an artifact added, a re-sent view) is not a new transition.
import type { StreamResponse, TaskState } from './a2aTypes.ts';
import { stateOfEvent } from './wireInbound.ts';

/** The states `events` move the task into, in order, starting from `from`. */
export function stateTransitions(events: readonly StreamResponse[], from: TaskState | undefined): TaskState[] {
  const moves: TaskState[] = [];
  let current = from;
  for (const event of events) {
    const state = stateOfEvent(event);
    if (state === undefined || ('task' in event && state === current)) continue;
    moves.push(state);
    current = state;
  }
  return moves;
}
