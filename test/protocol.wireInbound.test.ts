// Inbound converters: whatever either generation puts on the wire comes back canonical, and the
// outbound converters round-trip through them; shapes of neither generation name the bad field.
import { describe, expect, it } from 'vitest';
import type { Generation, StreamResponse, Task } from '../rig/protocol/a2aTypes.ts';
import { sendResultOnWire, streamEventOnWire, taskOnWire } from '../rig/protocol/wireGenerations.ts';
import { sendResultFromWire, streamEventFromWire, taskFromWire, taskIdOfEvent } from '../rig/protocol/wireInbound.ts';

const task: Task = {
  id: 't1',
  contextId: 'c1',
  status: {
    state: 'TASK_STATE_INPUT_REQUIRED',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: {
      messageId: 'm2',
      role: 'ROLE_AGENT',
      taskId: 't1',
      contextId: 'c1',
      parts: [{ text: 'Approve?' }],
      metadata: { k: { v: 1 } },
      extensions: ['urn:x'],
    },
  },
  artifacts: [
    {
      artifactId: 'a1',
      name: 'out',
      parts: [
        { text: 'hi' },
        { data: { n: 1 } },
        { url: 'https://example.com/f', mediaType: 'text/plain', filename: 'f' },
      ],
    },
  ],
  history: [{ messageId: 'm1', role: 'ROLE_USER', taskId: 't1', contextId: 'c1', parts: [{ text: 'go' }] }],
};

const events: StreamResponse[] = [
  { task },
  { message: task.history[0] },
  {
    statusUpdate: {
      taskId: 't1',
      contextId: 'c1',
      status: { state: 'TASK_STATE_WORKING', timestamp: 'now' },
      metadata: { m: true },
    },
  },
  { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: task.artifacts[0], append: true, lastChunk: false } },
];

describe.each<Generation>(['0.3', '1.0'])('round trip through the %s wire', (generation) => {
  it('tasks, send results and every stream event come back canonical', () => {
    expect(taskFromWire(taskOnWire(task, generation))).toEqual(task);
    expect(sendResultFromWire(sendResultOnWire(task, generation))).toEqual({ task });
    for (const event of events) expect(streamEventFromWire(streamEventOnWire(event, generation))).toEqual(event);
  });
});

describe('inbound details', () => {
  it('drops v0.3 `final` and fills absent artifacts/history with empty arrays', () => {
    const update = streamEventFromWire({
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'completed' },
      final: true,
    });
    expect(update).toEqual({
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED', timestamp: '' } },
    });
    expect(taskFromWire({ id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } })).toMatchObject({
      artifacts: [],
      history: [],
    });
    expect(taskIdOfEvent(update)).toBe('t');
  });

  it.each<[string, unknown, RegExp]>([
    [
      'an unknown state',
      { id: 't', contextId: 'c', status: { state: 'paused' } },
      /task\.status\.state "paused" is not a task state/,
    ],
    ['a missing id', { contextId: 'c', status: { state: 'working' } }, /task\.id must be a non-empty string/],
    [
      'a bad history message',
      {
        id: 't',
        contextId: 'c',
        status: { state: 'working' },
        history: [{ messageId: 'm', role: 'robot', parts: [] }],
      },
      /task\.history\[0\]: message\.role/,
    ],
    [
      'a bad artifact part',
      {
        id: 't',
        contextId: 'c',
        status: { state: 'working' },
        artifacts: [{ artifactId: 'a', parts: [{ kind: 'video' }] }],
      },
      /task\.artifacts\[0\]: message\.parts\[0\]/,
    ],
  ])('a task with %s is refused, naming the field', (_name, raw, message) => {
    expect(() => taskFromWire(raw)).toThrow(message);
  });

  it.each<[string, unknown, RegExp]>([
    ['two members', { task, message: task.history[0] }, /exactly one of task, message, statusUpdate, artifactUpdate/],
    ['no member', {}, /exactly one of/],
    ['an unknown v0.3 kind', { kind: 'progress' }, /event\.kind "progress" is not/],
    ['a non-object', 'hello', /event must be an object/],
  ])('a stream event with %s is refused', (_name, raw, message) => {
    expect(() => streamEventFromWire(raw)).toThrow(message);
  });

  it('a send result must be a task or a message', () => {
    expect(() => sendResultFromWire({ statusUpdate: events[2] })).toThrow(TypeError);
    expect(() => sendResultFromWire(streamEventOnWire(events[2], '0.3'))).toThrow(/not a stream update/);
  });
});
