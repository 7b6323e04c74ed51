// Reads what an agent sends back (tasks, statuses, artifacts, send results, stream events) in either
// wire generation and returns the canonical v1.0 shapes. The peer is untrusted: every field the rig
// relies on is checked, and a shape that is neither generation's raises TypeError naming the field.
// v1.0 JSON is ProtoJSON, which leaves out every field holding its default (false, 0, "", [], an
// unset message): absence is read as that default (no history, no parts, no metadata...).
import type {
  Artifact,
  JsonObject,
  Message,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from './a2aTypes.ts';
import { messageFromWire, parseTaskState, partFromWire } from './wireGenerations.ts';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new TypeError(`${what} must be an object`);
  return value;
}

function requireString(raw: JsonObject, key: string, what: string): string {
  const value = raw[key];
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${what}.${key} must be a non-empty string`);
  return value;
}

function optionalMetadata(raw: JsonObject, what: string): { metadata?: JsonObject } {
  if (raw.metadata === undefined || raw.metadata === null) return {};
  if (!isObject(raw.metadata)) throw new TypeError(`${what}.metadata must be an object`);
  return { metadata: raw.metadata };
}

function withContext<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof TypeError && !err.message.startsWith(what))
      throw new TypeError(`${what}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** A TaskStatus of either generation (`"input-required"` or `TASK_STATE_INPUT_REQUIRED`). */
export function statusFromWire(raw: unknown, what = 'status'): TaskStatus {
  const s = requireObject(raw, what);
  const state = parseTaskState(s.state);
  if (!state) throw new TypeError(`${what}.state ${JSON.stringify(s.state)} is not a task state of A2A 0.3 or 1.0`);
  const status: TaskStatus = { state, timestamp: typeof s.timestamp === 'string' ? s.timestamp : '' };
  if (s.message !== undefined && s.message !== null) {
    status.message = withContext(`${what}.message`, () => messageFromWire(s.message));
  }
  return status;
}

export function artifactFromWire(raw: unknown, what = 'artifact'): Artifact {
  const a = requireObject(raw, what);
  const rawParts = a.parts ?? [];
  if (!Array.isArray(rawParts)) throw new TypeError(`${what}.parts must be an array`);
  const parts = withContext(what, () => (rawParts as unknown[]).map((p, i) => partFromWire(p, i)));
  return {
    artifactId: requireString(a, 'artifactId', what),
    ...(typeof a.name === 'string' ? { name: a.name } : {}),
    ...(typeof a.description === 'string' ? { description: a.description } : {}),
    parts,
    ...optionalMetadata(a, what),
    ...(Array.isArray(a.extensions)
      ? { extensions: a.extensions.filter((e): e is string => typeof e === 'string') }
      : {}),
  };
}

/** A Task of either generation. Absent `artifacts`/`history` become empty arrays. */
export function taskFromWire(raw: unknown, what = 'task'): Task {
  const t = requireObject(raw, what);
  const artifacts = t.artifacts ?? [];
  const history = t.history ?? [];
  if (!Array.isArray(artifacts)) throw new TypeError(`${what}.artifacts must be an array`);
  if (!Array.isArray(history)) throw new TypeError(`${what}.history must be an array`);
  return {
    id: requireString(t, 'id', what),
    contextId: requireString(t, 'contextId', what),
    status: statusFromWire(t.status, `${what}.status`),
    artifacts: artifacts.map((a, i) => artifactFromWire(a, `${what}.artifacts[${i}]`)),
    history: history.map((m, i) => withContext(`${what}.history[${i}]`, () => messageFromWire(m))),
    ...optionalMetadata(t, what),
  };
}

function statusUpdateFromWire(raw: unknown, what: string): TaskStatusUpdateEvent {
  const u = requireObject(raw, what);
  return {
    taskId: requireString(u, 'taskId', what),
    contextId: requireString(u, 'contextId', what),
    status: statusFromWire(u.status, `${what}.status`),
    ...optionalMetadata(u, what),
  };
}

function artifactUpdateFromWire(raw: unknown, what: string): TaskArtifactUpdateEvent {
  const u = requireObject(raw, what);
  return {
    taskId: requireString(u, 'taskId', what),
    contextId: requireString(u, 'contextId', what),
    artifact: artifactFromWire(u.artifact, `${what}.artifact`),
    ...(typeof u.append === 'boolean' ? { append: u.append } : {}),
    ...(typeof u.lastChunk === 'boolean' ? { lastChunk: u.lastChunk } : {}),
    ...optionalMetadata(u, what),
  };
}

function messageEvent(raw: unknown, what: string): { message: Message } {
  return { message: withContext(what, () => messageFromWire(raw)) };
}

/**
 * One stream event (an SSE `result` or a replay frame's `event`): v1.0's StreamResponse with one of
 * `task`/`message`/`statusUpdate`/`artifactUpdate`, or v0.3's object with `kind`. v0.3's `final`
 * is dropped: canonically a stream ends when it closes.
 */
export function streamEventFromWire(raw: unknown, what = 'event'): StreamResponse {
  const e = requireObject(raw, what);
  switch (e.kind) {
    case 'task':
      return { task: taskFromWire(e, what) };
    case 'message':
      return messageEvent(e, what);
    case 'status-update':
      return { statusUpdate: statusUpdateFromWire(e, what) };
    case 'artifact-update':
      return { artifactUpdate: artifactUpdateFromWire(e, what) };
    case undefined:
      break;
    default:
      throw new TypeError(
        `${what}.kind ${JSON.stringify(e.kind)} is not task, message, status-update or artifact-update`,
      );
  }
  const members = ['task', 'message', 'statusUpdate', 'artifactUpdate'].filter((k) => e[k] !== undefined);
  if (members.length !== 1) {
    throw new TypeError(
      `${what} must carry exactly one of task, message, statusUpdate, artifactUpdate (v1.0) or a "kind" (v0.3)`,
    );
  }
  if (e.task !== undefined) return { task: taskFromWire(e.task, `${what}.task`) };
  if (e.message !== undefined) return messageEvent(e.message, `${what}.message`);
  if (e.statusUpdate !== undefined)
    return { statusUpdate: statusUpdateFromWire(e.statusUpdate, `${what}.statusUpdate`) };
  return { artifactUpdate: artifactUpdateFromWire(e.artifactUpdate, `${what}.artifactUpdate`) };
}

/** The `result` of a send: v1.0 `{task}`/`{message}`, v0.3 the Task or Message itself. */
export function sendResultFromWire(raw: unknown): { task: Task } | { message: Message } {
  const event = streamEventFromWire(raw, 'result');
  if ('task' in event || 'message' in event) return event;
  throw new TypeError('result of a send must be a Task or a Message, not a stream update');
}

/** The task an event is about, whichever member it carries. */
export function taskIdOfEvent(event: StreamResponse): string | undefined {
  if ('task' in event) return event.task.id;
  if ('statusUpdate' in event) return event.statusUpdate.taskId;
  if ('artifactUpdate' in event) return event.artifactUpdate.taskId;
  return event.message.taskId;
}

/** The status an event announces (a task snapshot's or a status update's), if any. */
export function statusOfEvent(event: StreamResponse): TaskStatus | undefined {
  if ('task' in event) return event.task.status;
  if ('statusUpdate' in event) return event.statusUpdate.status;
  return undefined;
}

/** The state an event announces (a task snapshot's or a status update's), if any. */
export function stateOfEvent(event: StreamResponse): TaskState | undefined {
  return statusOfEvent(event)?.state;
}
