// Reading what an A2A 0.3 HTTP+JSON agent answers (protoJsonV03ResponseReader.ts): the writer's
// shapes read back to the same canonical objects, the proto names and enum numbers a ProtoJSON
// printer may use, and refusals naming the field of a shape 0.3 does not have.
import { describe, expect, it } from 'vitest';
import type { Message, StreamResponse, Task } from '../rig/protocol/a2aTypes.ts';
import {
  sendResponseFromProtoJsonV03,
  streamResponseFromProtoJsonV03,
  taskFromProtoJsonV03,
} from '../rig/protocol/protoJsonV03ResponseReader.ts';
import {
  sendRequestToProtoJsonV03,
  sendResponseToProtoJsonV03,
  streamResponseToProtoJsonV03,
  taskToProtoJsonV03,
} from '../rig/protocol/protoJsonV03Writer.ts';

const prompt: Message = {
  messageId: 'p1',
  role: 'ROLE_AGENT',
  parts: [{ data: { prompt_id: 'x' } }, { text: 'ok?' }],
  metadata: { k: 1 },
};
const task: Task = {
  id: 't1',
  contextId: 'c1',
  status: { state: 'TASK_STATE_CANCELED', message: prompt, timestamp: '2026-01-01T00:00:00Z' },
  artifacts: [{ artifactId: 'a1', name: 'n', parts: [{ url: 'https://e/x', mediaType: 'text/plain' }] }],
  history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'go' }], extensions: ['urn:x'] }],
  metadata: { m: true },
};

describe('reading 0.3 ProtoJSON answers', () => {
  it('reads back what the writer writes: a task, both send responses, every stream event', () => {
    expect(taskFromProtoJsonV03(taskToProtoJsonV03(task))).toEqual(task);
    expect(sendResponseFromProtoJsonV03(sendResponseToProtoJsonV03({ task }))).toEqual({ task });
    expect(sendResponseFromProtoJsonV03(sendResponseToProtoJsonV03({ message: prompt }))).toEqual({
      message: prompt,
    });
    const events: StreamResponse[] = [
      { task },
      { message: prompt },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: task.status, metadata: { s: 1 } } },
      {
        artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: task.artifacts[0]!, append: true, lastChunk: false },
      },
    ];
    for (const event of events)
      expect(streamResponseFromProtoJsonV03(streamResponseToProtoJsonV03(event))).toEqual(event);
  });

  it('reads proto names and enum numbers (5 is CANCELLED, 6 INPUT_REQUIRED); a missing timestamp stays out', () => {
    const read = streamResponseFromProtoJsonV03({
      status_update: {
        task_id: 't',
        context_id: 'c',
        status: { state: 6, update: { message_id: 'm', role: 2, content: [{ text: 'q' }] } },
        final: false,
      },
    });
    expect(read).toEqual({
      statusUpdate: {
        taskId: 't',
        contextId: 'c',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'q' }] },
        },
      },
    });
    expect(taskFromProtoJsonV03({ id: 't', context_id: 'c', status: { state: 5 } }).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
    expect(
      sendResponseFromProtoJsonV03({ msg: { messageId: 'm', role: 'ROLE_AGENT', content: [{ text: 'hi' }] } }),
    ).toEqual({
      message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
  });

  it('refuses the 0.3 JSON-RPC shapes and what is not one event, naming the field', () => {
    expect(() => taskFromProtoJsonV03({ kind: 'task', id: 't', contextId: 'c', status: { state: 'working' } })).toThrow(
      /task\.kind is not a field of A2A 0\.3 ProtoJSON/,
    );
    expect(() => taskFromProtoJsonV03({ id: 't', contextId: 'c', status: { state: 'input-required' } })).toThrow(
      /task\.status\.state is not a TaskState of A2A 0\.3: "input-required"/,
    );
    expect(() => taskFromProtoJsonV03({ id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } })).toThrow(
      /not a TaskState/,
    );
    expect(() => taskFromProtoJsonV03({ id: 't', contextId: 'c' })).toThrow(/task\.status is required/);
    expect(() => sendResponseFromProtoJsonV03({})).toThrow(/exactly one of task, message/);
    expect(() => streamResponseFromProtoJsonV03({ task: {}, message: {} })).toThrow(
      /exactly one of .*got task, message/,
    );
    expect(() =>
      streamResponseFromProtoJsonV03({ statusUpdate: { taskId: 't', status: { state: 2 }, final: 'yes' } }),
    ).toThrow(/event\.statusUpdate\.final must be a boolean/);
  });
});

describe('writing a 0.3 SendMessageRequest', () => {
  it('writes the message as 0.3 ProtoJSON and keeps 0.3 configuration fields as they are', () => {
    const body = sendRequestToProtoJsonV03(
      prompt,
      { blocking: false, historyLength: 3, pushNotificationConfig: { url: 'x' } },
      { r: 1 },
    );
    expect(body).toEqual({
      message: {
        messageId: 'p1',
        role: 'ROLE_AGENT',
        content: [{ data: { data: { prompt_id: 'x' } } }, { text: 'ok?' }],
        metadata: { k: 1 },
      },
      configuration: { historyLength: 3, blocking: false },
      metadata: { r: 1 },
    });
  });

  it('writes blocking: true when the params say nothing (absent, a 0.3 REST server reads false)', () => {
    expect(sendRequestToProtoJsonV03(prompt).configuration).toEqual({ blocking: true });
    expect(sendRequestToProtoJsonV03(prompt, { historyLength: 1 }).configuration).toEqual({
      blocking: true,
      historyLength: 1,
    });
  });
});
