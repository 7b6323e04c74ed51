// The A2A 0.3 ProtoJSON converter: names checked against the 0.3 a2a.proto (json_name), both
// spellings read, strict on shapes a 0.3 REST client could get wrong.
import { describe, expect, it } from 'vitest';
import type { Task } from '../rig/protocol/a2aTypes.ts';
import { messageFromProtoJsonV03, sendRequestFromProtoJsonV03 } from '../rig/protocol/protoJsonV03Reader.ts';
import {
  sendResponseToProtoJsonV03,
  streamResponseToProtoJsonV03,
  taskToProtoJsonV03,
} from '../rig/protocol/protoJsonV03Writer.ts';

describe('reading a 0.3 SendMessageRequest', () => {
  it('reads the proto names the TCK sends (message_id, content, file_with_uri, history_length) as canonical', () => {
    const params = sendRequestFromProtoJsonV03({
      message: {
        message_id: 'm1',
        context_id: 'c1',
        role: 'ROLE_USER',
        content: [
          { text: 'hi' },
          { file: { mime_type: 'text/plain', file_with_uri: 'https://example.com/a.txt' } },
          { data: { data: { k: 1 } } },
        ],
      },
      configuration: { accepted_output_modes: ['text/plain'], history_length: 2, blocking: false },
    });
    expect(params).toEqual({
      message: {
        messageId: 'm1',
        contextId: 'c1',
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }, { url: 'https://example.com/a.txt', mediaType: 'text/plain' }, { data: { k: 1 } }],
      },
      configuration: { acceptedOutputModes: ['text/plain'], historyLength: 2, returnImmediately: true },
    });
  });

  it('reads the JSON names and enum numbers too', () => {
    const message = messageFromProtoJsonV03({
      messageId: 'm',
      role: 1,
      content: [{ file: { fileWithBytes: 'aGk=', mimeType: 'text/plain', name: 'a.txt' } }],
      extensions: ['x'],
    });
    expect(message).toEqual({
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ raw: 'aGk=', mediaType: 'text/plain', filename: 'a.txt' }],
      extensions: ['x'],
    });
  });

  it.each([
    [{}, 'request.message is required'],
    [{ message: {} }, 'message.messageId is required'],
    [{ message: { messageId: 'm', role: 'ROLE_USER', content: [] } }, 'message.content must list at least one part'],
    [{ message: { messageId: 'm', role: 'ROLE_USER' } }, 'message.content must list at least one part'],
    [
      { message: { messageId: 'm', role: 'user', content: [{ text: 'x' }] } },
      'message.role must be ROLE_USER or ROLE_AGENT',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{ kind: 'text', text: 'x' }] } },
      'message.content[0].kind is not a field',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{}] } },
      'message.content[0] must carry exactly one of text, file, data (got none)',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'x', data: { data: {} } }] } },
      'got text and data',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{ file: { mimeType: 'text/plain' } }] } },
      'exactly one of fileWithUri, fileWithBytes',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{ data: { data: [1] } }] } },
      'message.content[0].data.data must be an object',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ kind: 'text', text: 'x' }] } },
      'message.parts is not a field of A2A 0.3 ProtoJSON',
    ],
    [
      { message: { messageId: 'm', message_id: 'n', role: 'ROLE_USER', content: [{ text: 'x' }] } },
      'message.messageId is given twice',
    ],
    [
      { message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'x' }] }, configuration: { blocking: 'no' } },
      'configuration.blocking must be a boolean',
    ],
  ])('refuses %j: %s', (body, reason) => {
    expect(() => sendRequestFromProtoJsonV03(body)).toThrow(reason);
  });
});

const task: Task = {
  id: 't1',
  contextId: 'c1',
  status: {
    state: 'TASK_STATE_CANCELED',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { messageId: 's', role: 'ROLE_AGENT', parts: [{ text: 'bye' }] },
  },
  artifacts: [
    {
      artifactId: 'a1',
      name: 'out',
      parts: [{ url: 'https://example.com/o.txt', mediaType: 'text/plain', filename: 'output.txt' }, { data: 7 }],
    },
  ],
  history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ raw: 'aGk=' }] }],
};

describe('writing 0.3 ProtoJSON', () => {
  it('writes a task with the 0.3 enum names (CANCELLED) and the proto json_names', () => {
    expect(taskToProtoJsonV03(task)).toEqual({
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'TASK_STATE_CANCELLED',
        message: { messageId: 's', role: 'ROLE_AGENT', content: [{ text: 'bye' }] },
        timestamp: '2026-01-01T00:00:00.000Z',
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'out',
          parts: [
            { file: { fileWithUri: 'https://example.com/o.txt', mimeType: 'text/plain', name: 'output.txt' } },
            { data: { data: { value: 7 } } },
          ],
        },
      ],
      history: [{ messageId: 'm1', role: 'ROLE_USER', content: [{ file: { fileWithBytes: 'aGk=' } }] }],
    });
  });

  it('wraps send results and stream events in their oneof member, with final on the settling update', () => {
    expect(Object.keys(sendResponseToProtoJsonV03({ task }))).toEqual(['task']);
    expect(
      sendResponseToProtoJsonV03({ message: { messageId: 'r', role: 'ROLE_AGENT', parts: [{ text: 'Echo' }] } }),
    ).toEqual({
      message: { messageId: 'r', role: 'ROLE_AGENT', content: [{ text: 'Echo' }] },
    });
    const working = streamResponseToProtoJsonV03({
      statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING', timestamp: '' } },
    });
    expect(working).toEqual({
      statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' }, final: false },
    });
    const done = streamResponseToProtoJsonV03({
      statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: 'x' } },
    });
    expect(done.statusUpdate).toMatchObject({ final: true, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    const chunk = streamResponseToProtoJsonV03({
      artifactUpdate: {
        taskId: 't1',
        contextId: 'c1',
        artifact: { artifactId: 'a', parts: [{ text: 'chunk-2' }] },
        append: true,
        lastChunk: true,
      },
    });
    expect(chunk).toEqual({
      artifactUpdate: {
        taskId: 't1',
        contextId: 'c1',
        artifact: { artifactId: 'a', parts: [{ text: 'chunk-2' }] },
        append: true,
        lastChunk: true,
      },
    });
  });
});
