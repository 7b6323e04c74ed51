// What an A2A 0.3 HTTP+JSON agent answers (a Task, a SendMessageResponse, a StreamResponse frame),
// read from 0.3 ProtoJSON into the canonical (v1.0) shapes, so the rig's client can hand them on as
// the 0.3 JSON-RPC shapes everything above its transport reads. The same rules as the request
// readers in protoJsonV03Reader.ts: JSON or proto field names, enums by name or number, an unknown
// field refused (a ProtoJSON parser's default); a bad shape raises TypeError naming the field.
import type { Artifact, JsonObject, Message, StreamResponse, Task, TaskState, TaskStatus } from './a2aTypes.ts';
import {
  messageFromProtoJsonV03,
  optionalStringField,
  optionalStruct,
  partFromProtoJson,
  readFields,
} from './protoJsonV03Reader.ts';

/** The 0.3 proto's TaskState values, by name and number; CANCELLED is spelt with two L. */
const STATES = new Map<unknown, TaskState>([
  ['TASK_STATE_SUBMITTED', 'TASK_STATE_SUBMITTED'],
  [1, 'TASK_STATE_SUBMITTED'],
  ['TASK_STATE_WORKING', 'TASK_STATE_WORKING'],
  [2, 'TASK_STATE_WORKING'],
  ['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED'],
  [3, 'TASK_STATE_COMPLETED'],
  ['TASK_STATE_FAILED', 'TASK_STATE_FAILED'],
  [4, 'TASK_STATE_FAILED'],
  ['TASK_STATE_CANCELLED', 'TASK_STATE_CANCELED'],
  [5, 'TASK_STATE_CANCELED'],
  ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_INPUT_REQUIRED'],
  [6, 'TASK_STATE_INPUT_REQUIRED'],
  ['TASK_STATE_REJECTED', 'TASK_STATE_REJECTED'],
  [7, 'TASK_STATE_REJECTED'],
  ['TASK_STATE_AUTH_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'],
  [8, 'TASK_STATE_AUTH_REQUIRED'],
]);

function requiredString(f: JsonObject, name: string, what: string): string {
  const value = optionalStringField(f, name, what);
  if (!value) throw new TypeError(`${what}.${name} is required`);
  return value;
}

function list<T>(f: JsonObject, name: string, what: string, read: (raw: unknown, at: string) => T): T[] {
  const value = f[name] ?? [];
  if (!Array.isArray(value)) throw new TypeError(`${what}.${name} must be an array`);
  return value.map((v, i) => read(v, `${what}.${name}[${i}]`));
}

function statusFromProtoJson(raw: unknown, what: string): TaskStatus {
  // TaskStatus.update has json_name "message".
  const f = readFields(
    raw,
    [
      ['state', 'state'],
      ['message', 'update'],
      ['timestamp', 'timestamp'],
    ],
    what,
  );
  const state = STATES.get(f.state);
  if (!state) throw new TypeError(`${what}.state is not a TaskState of A2A 0.3: ${JSON.stringify(f.state ?? null)}`);
  const timestamp = optionalStringField(f, 'timestamp', what);
  // A Timestamp left out is the proto default (unknown time): the status goes on without one.
  const status = { state, ...(timestamp ? { timestamp } : {}) } as TaskStatus;
  if (f.message !== undefined) status.message = messageFromProtoJsonV03(f.message, `${what}.message`);
  return status;
}

function artifactFromProtoJson(raw: unknown, what: string): Artifact {
  const f = readFields(
    raw,
    [
      ['artifactId', 'artifact_id'],
      ['name', 'name'],
      ['description', 'description'],
      ['parts', 'parts'],
      ['metadata', 'metadata'],
      ['extensions', 'extensions'],
    ],
    what,
  );
  const artifact: Artifact = {
    artifactId: requiredString(f, 'artifactId', what),
    parts: list(f, 'parts', what, partFromProtoJson),
  };
  const name = optionalStringField(f, 'name', what);
  const description = optionalStringField(f, 'description', what);
  const metadata = optionalStruct(f, 'metadata', what);
  if (name !== undefined) artifact.name = name;
  if (description !== undefined) artifact.description = description;
  if (metadata) artifact.metadata = metadata;
  const extensions = list(f, 'extensions', what, (e, at) => {
    if (typeof e !== 'string') throw new TypeError(`${at} must be a string`);
    return e;
  });
  if (extensions.length > 0) artifact.extensions = extensions;
  return artifact;
}

/** A 0.3 ProtoJSON Task (GetTask, CancelTask, a send's `task`) as canonical. */
export function taskFromProtoJsonV03(raw: unknown, what = 'task'): Task {
  const f = readFields(
    raw,
    [
      ['id', 'id'],
      ['contextId', 'context_id'],
      ['status', 'status'],
      ['artifacts', 'artifacts'],
      ['history', 'history'],
      ['metadata', 'metadata'],
    ],
    what,
  );
  if (f.status === undefined) throw new TypeError(`${what}.status is required`);
  const task: Task = {
    id: requiredString(f, 'id', what),
    contextId: optionalStringField(f, 'contextId', what) ?? '',
    status: statusFromProtoJson(f.status, `${what}.status`),
    artifacts: list(f, 'artifacts', what, artifactFromProtoJson),
    history: list(f, 'history', what, (m, at): Message => messageFromProtoJsonV03(m, at)),
  };
  const metadata = optionalStruct(f, 'metadata', what);
  if (metadata) task.metadata = metadata;
  return task;
}

/** SendMessageResponse: exactly one of `task`, `message` (the `msg` field's json_name). */
export function sendResponseFromProtoJsonV03(raw: unknown): { task: Task } | { message: Message } {
  const f = readFields(
    raw,
    [
      ['task', 'task'],
      ['message', 'msg'],
    ],
    'response',
  );
  if ((f.task === undefined) === (f.message === undefined))
    throw new TypeError('response must carry exactly one of task, message');
  return f.task !== undefined
    ? { task: taskFromProtoJsonV03(f.task, 'response.task') }
    : { message: messageFromProtoJsonV03(f.message, 'response.message') };
}

function statusUpdateFromProtoJson(raw: unknown, what: string): StreamResponse {
  const f = readFields(
    raw,
    [
      ['taskId', 'task_id'],
      ['contextId', 'context_id'],
      ['status', 'status'],
      ['final', 'final'],
      ['metadata', 'metadata'],
    ],
    what,
  );
  if (f.status === undefined) throw new TypeError(`${what}.status is required`);
  if (f.final !== undefined && typeof f.final !== 'boolean') throw new TypeError(`${what}.final must be a boolean`);
  const metadata = optionalStruct(f, 'metadata', what);
  return {
    statusUpdate: {
      taskId: requiredString(f, 'taskId', what),
      contextId: optionalStringField(f, 'contextId', what) ?? '',
      status: statusFromProtoJson(f.status, `${what}.status`),
      ...(metadata ? { metadata } : {}),
    },
  };
}

function artifactUpdateFromProtoJson(raw: unknown, what: string): StreamResponse {
  const f = readFields(
    raw,
    [
      ['taskId', 'task_id'],
      ['contextId', 'context_id'],
      ['artifact', 'artifact'],
      ['append', 'append'],
      ['lastChunk', 'last_chunk'],
      ['metadata', 'metadata'],
    ],
    what,
  );
  if (f.artifact === undefined) throw new TypeError(`${what}.artifact is required`);
  for (const flag of ['append', 'lastChunk'])
    if (f[flag] !== undefined && typeof f[flag] !== 'boolean') throw new TypeError(`${what}.${flag} must be a boolean`);
  const metadata = optionalStruct(f, 'metadata', what);
  return {
    artifactUpdate: {
      taskId: requiredString(f, 'taskId', what),
      contextId: optionalStringField(f, 'contextId', what) ?? '',
      artifact: artifactFromProtoJson(f.artifact, `${what}.artifact`),
      ...(f.append !== undefined ? { append: f.append as boolean } : {}),
      ...(f.lastChunk !== undefined ? { lastChunk: f.lastChunk as boolean } : {}),
      ...(metadata ? { metadata } : {}),
    },
  };
}

/** One SSE frame of a 0.3 stream: exactly one of task, message, statusUpdate, artifactUpdate. */
export function streamResponseFromProtoJsonV03(raw: unknown): StreamResponse {
  const f = readFields(
    raw,
    [
      ['task', 'task'],
      ['message', 'msg'],
      ['statusUpdate', 'status_update'],
      ['artifactUpdate', 'artifact_update'],
    ],
    'event',
  );
  const set = Object.keys(f);
  if (set.length !== 1)
    throw new TypeError(
      `event must carry exactly one of task, message, statusUpdate, artifactUpdate (got ${set.join(', ') || 'none'})`,
    );
  if (f.task !== undefined) return { task: taskFromProtoJsonV03(f.task, 'event.task') };
  if (f.message !== undefined) return { message: messageFromProtoJsonV03(f.message, 'event.message') };
  if (f.statusUpdate !== undefined) return statusUpdateFromProtoJson(f.statusUpdate, 'event.statusUpdate');
  return artifactUpdateFromProtoJson(f.artifactUpdate, 'event.artifactUpdate');
}
