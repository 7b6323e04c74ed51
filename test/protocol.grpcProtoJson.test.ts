// The gRPC binding's ProtoJSON conversion (rig/protocol/grpc/protoJson.ts) and error mapping
// (grpcStatus.ts): canonical A2A 1.0 objects survive binary protobuf unchanged, Struct / Value /
// Timestamp included, and an A2AError survives a gRPC status with its code, ErrorInfo and data.
import { status as GrpcCode } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type { Message, StreamResponse, Task } from '../rig/protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_TASK_NOT_FOUND,
  HITL_RESPONSE_INVALID,
  HITL_RESPONSE_INVALID_MESSAGE,
  JSONRPC_INVALID_PARAMS,
} from '../rig/protocol/errorCodes.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { decodeMessage, encodeMessage } from '../rig/protocol/grpc/protoJson.ts';
import { fromGrpcError, toGrpcError } from '../rig/protocol/grpc/grpcStatus.ts';
import { Metadata, type ServiceError } from '@grpc/grpc-js';

const roundTrip = <T>(type: string, value: T): T => decodeMessage<T>(type, encodeMessage(type, value));

const prompt: Message = {
  messageId: 'm-1',
  contextId: 'c-1',
  taskId: 't-1',
  role: 'ROLE_AGENT',
  parts: [
    { text: 'Approve?' },
    {
      data: {
        prompt_id: 'p-1',
        response_schema: { type: 'object', required: ['ok'], nested: [1, 2.5, null, true, {}] },
      },
      mediaType: 'application/json',
    },
    { raw: Buffer.from('bytes').toString('base64'), filename: 'out.txt', mediaType: 'text/plain' },
  ],
  metadata: { [HITL_PROMPT_URI]: { prompt_id: 'p-1', deadline: null, list: [{ deep: { er: 'x' } }] } },
  extensions: [HITL_PROMPT_URI],
  referenceTaskIds: ['t-0'],
};

const task: Task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_INPUT_REQUIRED', message: prompt, timestamp: '2026-12-05T04:00:00.123Z' },
  artifacts: [{ artifactId: 'a-1', name: 'n', parts: [{ data: ['a', 1] }], metadata: { k: 'v' } }],
  history: [{ ...prompt, role: 'ROLE_USER', messageId: 'm-0' }],
  metadata: { any: { thing: [] } },
};

describe('ProtoJSON over binary protobuf', () => {
  it('a Task round-trips, its Struct metadata and data parts as plain JSON', () => {
    expect(roundTrip('Task', task)).toEqual(task);
  });

  it('a Message with a data part holding a nested Struct round-trips', () => {
    expect(roundTrip('Message', prompt)).toEqual(prompt);
  });

  it('every StreamResponse member round-trips', () => {
    const events: StreamResponse[] = [
      { task },
      { message: prompt },
      { statusUpdate: { taskId: 't-1', contextId: 'c-1', status: task.status, metadata: { m: 1 } } },
      {
        artifactUpdate: { taskId: 't-1', contextId: 'c-1', artifact: task.artifacts[0], append: true, lastChunk: true },
      },
    ];
    for (const event of events) expect(roundTrip('StreamResponse', event)).toEqual(event);
  });

  it('writes defaults as absent, as ProtoJSON does', () => {
    const bare = { ...task, artifacts: [], history: [], metadata: undefined };
    const { artifacts, history, metadata, ...rest } = bare;
    expect([artifacts, history, metadata]).toEqual([[], [], undefined]);
    expect(roundTrip('Task', bare)).toEqual(rest);
  });

  it('Timestamps come back in UTC with 3, 6 or 9 fractional digits', () => {
    const at = (timestamp: string) =>
      roundTrip('TaskStatus', { state: 'TASK_STATE_WORKING', timestamp }).timestamp as string;
    expect(at('2026-12-05T06:00:00.5+02:00')).toBe('2026-12-05T04:00:00.500Z');
    expect(at('2026-12-05T04:00:00.000001Z')).toBe('2026-12-05T04:00:00.000001Z');
    expect(at('2026-12-05T04:00:00.123456789Z')).toBe('2026-12-05T04:00:00.123456789Z');
    expect(at('2026-12-05T04:00:00Z')).toBe('2026-12-05T04:00:00Z');
    expect(() => encodeMessage('TaskStatus', { timestamp: 'yesterday' })).toThrow(/RFC 3339/);
  });
});

/** A status as the client's side of grpc-js sees it. */
function received(error: A2AError): Pick<ServiceError, 'code' | 'details' | 'metadata'> {
  const sent = toGrpcError(error, HITL_PROMPT_URI);
  return { code: sent.code!, details: sent.details!, metadata: sent.metadata ?? new Metadata() };
}

describe('A2A errors as gRPC statuses', () => {
  it('TaskNotFound is NOT_FOUND with the A2A ErrorInfo', () => {
    const sent = received(new A2AError(A2A_TASK_NOT_FOUND, 'task t-9 not found'));
    expect(sent.code).toBe(GrpcCode.NOT_FOUND);
    const back = fromGrpcError(sent);
    expect(back.info).toMatchObject({ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
    expect(back.error.toJson()).toEqual({ code: A2A_TASK_NOT_FOUND, message: 'task t-9 not found' });
  });

  it('a hitl -32011 keeps the contract object as error.data and its own ErrorInfo', () => {
    const data = {
      extension: HITL_PROMPT_URI,
      prompt_id: 'p-1',
      validation_errors: [{ path: '/ok', keyword: 'type', message: 'must be boolean' }],
    };
    const sent = received(new A2AError(HITL_RESPONSE_INVALID, HITL_RESPONSE_INVALID_MESSAGE, data));
    expect(sent.code).toBe(GrpcCode.INVALID_ARGUMENT);
    const back = fromGrpcError(sent);
    expect(back.info).toMatchObject({ reason: 'HITL_RESPONSE_INVALID', metadata: { extension: HITL_PROMPT_URI } });
    expect(back.error.toJson()).toEqual({ code: HITL_RESPONSE_INVALID, message: HITL_RESPONSE_INVALID_MESSAGE, data });
  });

  it('an error without ErrorInfo reads back by its status code', () => {
    const back = fromGrpcError(received(new A2AError(JSONRPC_INVALID_PARAMS, 'params.id is required')));
    expect(back.info).toBeUndefined();
    expect(back.error.code).toBe(JSONRPC_INVALID_PARAMS);
  });
});
