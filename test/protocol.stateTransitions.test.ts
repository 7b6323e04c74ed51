// The transitions a run of stream events shows, whatever shape carried them: a status update is one
// each time; a Task snapshot only when its state differs from the last one known.
import { describe, expect, it } from 'vitest';
import type { StreamResponse, TaskState } from '../rig/protocol/a2aTypes.ts';
import { stateTransitions } from '../rig/protocol/stateTransitions.ts';

const update = (state: TaskState): StreamResponse =>
  ({ statusUpdate: { taskId: 't', contextId: 'c', status: { state } } }) as unknown as StreamResponse;
const snapshot = (state: TaskState): StreamResponse =>
  ({ task: { id: 't', contextId: 'c', status: { state }, history: [], artifacts: [] } }) as unknown as StreamResponse;

describe('stateTransitions', () => {
  it('counts a snapshot in another state as a transition, and one repeating the state as none', () => {
    const events = [snapshot('TASK_STATE_WORKING'), snapshot('TASK_STATE_WORKING'), snapshot('TASK_STATE_COMPLETED')];
    expect(stateTransitions(events, 'TASK_STATE_INPUT_REQUIRED')).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(stateTransitions([snapshot('TASK_STATE_INPUT_REQUIRED')], 'TASK_STATE_INPUT_REQUIRED')).toEqual([]);
  });

  it('counts every status update, repeated or not (an agent that resumes twice says so twice)', () => {
    const events = [update('TASK_STATE_WORKING'), update('TASK_STATE_WORKING'), snapshot('TASK_STATE_WORKING')];
    expect(stateTransitions(events, 'TASK_STATE_INPUT_REQUIRED')).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_WORKING']);
  });

  it('reads a mixed stream in order, from an unknown start', () => {
    const events = [snapshot('TASK_STATE_INPUT_REQUIRED'), update('TASK_STATE_WORKING'), snapshot('TASK_STATE_FAILED')];
    expect(stateTransitions(events, undefined)).toEqual([
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_WORKING',
      'TASK_STATE_FAILED',
    ]);
  });
});
