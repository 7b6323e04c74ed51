// A2A 0.3's HTTP+JSON binding speaks ProtoJSON of the 0.3 a2a.proto (package a2a.v1, served under
// /v1/), which differs from both 0.3's JSON-RPC shapes and 1.0's: a message lists its parts in
// `content`, parts have no `kind` (`{text}`, `{file: {fileWithUri|fileWithBytes, mimeType, name}}`,
// `{data: {data: {...}}}`), roles and states are enum names (`ROLE_USER`,
// `TASK_STATE_CANCELLED` with two L), and a send answers `{task}` or `{message}`.
// This file writes the canonical (v1.0) shapes the agent works in as 0.3 ProtoJSON;
// protoJsonV03Reader.ts reads them back.
import type { Artifact, JsonObject, Message, Part, StreamResponse, Task, TaskState, TaskStatus } from './a2aTypes.ts';
import { isSettled } from './a2aTypes.ts';

/** The 0.3 proto's TaskState names; only CANCELED differs from 1.0 (0.3 spells it CANCELLED). */
const STATE_V03: Record<TaskState, string> = {
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_CANCELED: 'TASK_STATE_CANCELLED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
};

export function stateToProtoJsonV03(state: TaskState): string {
  return STATE_V03[state];
}

function partToProtoJson(part: Part): JsonObject {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  if (part.text !== undefined) return { text: part.text, ...metadata };
  if (part.data !== undefined) {
    // DataPart.data is a Struct: an object. A canonical scalar or list is wrapped, as in 0.3 JSON-RPC.
    const data =
      typeof part.data === 'object' && part.data !== null && !Array.isArray(part.data)
        ? part.data
        : { value: part.data };
    return { data: { data }, ...metadata };
  }
  const file: JsonObject = {};
  if (part.url !== undefined) file.fileWithUri = part.url;
  else if (part.raw !== undefined) file.fileWithBytes = part.raw;
  if (part.mediaType !== undefined) file.mimeType = part.mediaType;
  if (part.filename !== undefined) file.name = part.filename;
  return { file, ...metadata };
}

export function messageToProtoJsonV03(message: Message): JsonObject {
  return {
    messageId: message.messageId,
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    role: message.role,
    content: message.parts.map(partToProtoJson),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.extensions && message.extensions.length > 0 ? { extensions: message.extensions } : {}),
  };
}

function statusToProtoJson(status: TaskStatus): JsonObject {
  return {
    state: STATE_V03[status.state],
    // TaskStatus.update has json_name "message".
    ...(status.message ? { message: messageToProtoJsonV03(status.message) } : {}),
    // A Timestamp cannot be empty; an unknown time is left out (the proto default).
    ...(status.timestamp ? { timestamp: status.timestamp } : {}),
  };
}

function artifactToProtoJson(artifact: Artifact): JsonObject {
  return {
    artifactId: artifact.artifactId,
    ...(artifact.name !== undefined ? { name: artifact.name } : {}),
    ...(artifact.description !== undefined ? { description: artifact.description } : {}),
    parts: artifact.parts.map(partToProtoJson),
    ...(artifact.metadata ? { metadata: artifact.metadata } : {}),
    ...(artifact.extensions && artifact.extensions.length > 0 ? { extensions: artifact.extensions } : {}),
  };
}

export function taskToProtoJsonV03(task: Task): JsonObject {
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusToProtoJson(task.status),
    artifacts: task.artifacts.map(artifactToProtoJson),
    history: task.history.map(messageToProtoJsonV03),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}

/** SendMessageResponse: `{task}` or `{message}` (the `msg` field's json_name). */
export function sendResponseToProtoJsonV03(result: { task: Task } | { message: Message }): JsonObject {
  return 'task' in result
    ? { task: taskToProtoJsonV03(result.task) }
    : { message: messageToProtoJsonV03(result.message) };
}

/** StreamResponse: exactly one of task, message, statusUpdate, artifactUpdate. 0.3 marks the
 * update that ends a send stream with `final`. */
export function streamResponseToProtoJsonV03(event: StreamResponse): JsonObject {
  if ('task' in event) return { task: taskToProtoJsonV03(event.task) };
  if ('message' in event) return { message: messageToProtoJsonV03(event.message) };
  if ('statusUpdate' in event) {
    const u = event.statusUpdate;
    return {
      statusUpdate: {
        taskId: u.taskId,
        contextId: u.contextId,
        status: statusToProtoJson(u.status),
        final: isSettled(u.status.state),
        ...(u.metadata ? { metadata: u.metadata } : {}),
      },
    };
  }
  const a = event.artifactUpdate;
  return {
    artifactUpdate: {
      taskId: a.taskId,
      contextId: a.contextId,
      artifact: artifactToProtoJson(a.artifact),
      ...(a.append !== undefined ? { append: a.append } : {}),
      ...(a.lastChunk !== undefined ? { lastChunk: a.lastChunk } : {}),
      ...(a.metadata ? { metadata: a.metadata } : {}),
    },
  };
}

/** The SendMessageConfiguration fields 0.3 ProtoJSON and 0.3 JSON-RPC name alike. */
const CONFIGURATION_FIELDS = ['acceptedOutputModes', 'historyLength', 'blocking'];

/**
 * SendMessageRequest: `{message, configuration, metadata?}` (the `request` field's json_name). The
 * configuration is 0.3's (`blocking`, not 1.0's `returnImmediately`); its fields pass as they are.
 * `blocking` is always written: a proto3 bool has no "unset", so a 0.3 REST server reads it absent
 * as false (a2a-sdk 0.3 answers at once), where 0.3 JSON-RPC's absent `blocking` waits.
 */
export function sendRequestToProtoJsonV03(
  message: Message,
  configuration?: JsonObject,
  metadata?: JsonObject,
): JsonObject {
  const config: JsonObject = { blocking: true };
  for (const name of CONFIGURATION_FIELDS) if (configuration?.[name] !== undefined) config[name] = configuration[name];
  return {
    message: messageToProtoJsonV03(message),
    configuration: config,
    ...(metadata ? { metadata } : {}),
  };
}
