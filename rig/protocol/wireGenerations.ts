// Converts the canonical (v1.0) shapes to the generation a peer speaks, and inbound messages of
// either generation back to canonical. Unknown input shapes raise TypeError with a reason.
import type {
  Artifact,
  Generation,
  JsonObject,
  Message,
  Part,
  Role,
  StreamResponse,
  Task,
  TaskState,
  TaskStatus,
} from './a2aTypes.ts';
import { isSettled } from './a2aTypes.ts';

const V03_STATE: Record<TaskState, string> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};
const STATE_FROM_V03 = new Map(Object.entries(V03_STATE).map(([k, v]) => [v, k as TaskState]));

/** Accepts either generation's spelling of a state; undefined if it is neither. */
export function parseTaskState(value: unknown): TaskState | undefined {
  if (typeof value !== 'string') return undefined;
  if (value in V03_STATE) return value as TaskState;
  return STATE_FROM_V03.get(value);
}

function partToV03(part: Part): JsonObject {
  const common = part.metadata ? { metadata: part.metadata } : {};
  if (part.text !== undefined) return { kind: 'text', text: part.text, ...common };
  if (part.data !== undefined) {
    const data =
      typeof part.data === 'object' && part.data !== null && !Array.isArray(part.data)
        ? part.data
        : { value: part.data };
    return { kind: 'data', data, ...common };
  }
  const file: JsonObject = {};
  if (part.url !== undefined) file.uri = part.url;
  if (part.raw !== undefined) file.bytes = part.raw;
  if (part.mediaType !== undefined) file.mimeType = part.mediaType;
  if (part.filename !== undefined) file.name = part.filename;
  return { kind: 'file', file, ...common };
}

function messageToV03(message: Message): JsonObject {
  return {
    kind: 'message',
    ...message,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: message.parts.map(partToV03),
  };
}

function statusToV03(status: TaskStatus): JsonObject {
  return {
    ...status,
    state: V03_STATE[status.state],
    ...(status.message ? { message: messageToV03(status.message) } : {}),
  };
}

function artifactToV03(artifact: Artifact): JsonObject {
  return { ...artifact, parts: artifact.parts.map(partToV03) };
}

function taskToV03(task: Task): JsonObject {
  return {
    kind: 'task',
    ...task,
    status: statusToV03(task.status),
    artifacts: task.artifacts.map(artifactToV03),
    history: task.history.map(messageToV03),
  };
}

export function taskOnWire(task: Task, generation: Generation): JsonObject {
  return generation === '1.0' ? (task as unknown as JsonObject) : taskToV03(task);
}

export function messageOnWire(message: Message, generation: Generation): JsonObject {
  return generation === '1.0' ? (message as unknown as JsonObject) : messageToV03(message);
}

/** The `result` of a send: v1.0 wraps it (`{task}`), v0.3 returns the Task itself. */
export function sendResultOnWire(task: Task, generation: Generation): JsonObject {
  return generation === '1.0' ? { task } : taskToV03(task);
}

/** One stream event in the peer's generation (v0.3 adds `kind` and `final`). */
export function streamEventOnWire(event: StreamResponse, generation: Generation): JsonObject {
  if (generation === '1.0') return event as unknown as JsonObject;
  if ('task' in event) return taskToV03(event.task);
  if ('message' in event) return messageToV03(event.message);
  if ('statusUpdate' in event) {
    const u = event.statusUpdate;
    return {
      kind: 'status-update',
      taskId: u.taskId,
      contextId: u.contextId,
      status: statusToV03(u.status),
      final: isSettled(u.status.state),
      ...(u.metadata ? { metadata: u.metadata } : {}),
    };
  }
  const a = event.artifactUpdate;
  return {
    kind: 'artifact-update',
    taskId: a.taskId,
    contextId: a.contextId,
    artifact: artifactToV03(a.artifact),
    ...(a.append !== undefined ? { append: a.append } : {}),
    ...(a.lastChunk !== undefined ? { lastChunk: a.lastChunk } : {}),
    ...(a.metadata ? { metadata: a.metadata } : {}),
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type FileField = 'url' | 'raw' | 'mediaType' | 'filename';
/** A v0.3 `file` object's fields and the canonical part fields they become, in the part's order. */
const V03_FILE_FIELDS: [string, FileField][] = [
  ['uri', 'url'],
  ['bytes', 'raw'],
  ['mimeType', 'mediaType'],
  ['name', 'filename'],
];
const FILE_FIELDS: [string, FileField][] = [
  ['url', 'url'],
  ['raw', 'raw'],
  ['mediaType', 'mediaType'],
  ['filename', 'filename'],
];

/** The file fields `source` holds as strings, renamed to the part's; the others are left out. */
function fileFields(source: JsonObject, fields: [string, FileField][]): Part {
  const part: Part = {};
  for (const [from, to] of fields) {
    const value = source[from];
    if (typeof value === 'string') part[to] = value;
  }
  return part;
}

/** An absent `kind` (v1.0, or a lenient read of v0.3) allows any; a present one only itself. */
function kindAllows(kind: unknown, wanted: 'text' | 'data'): boolean {
  return kind === undefined || kind === wanted;
}

/** In a strict 0.3 read `kind` is required and is one of the three. */
function checkV03Kind(kind: unknown, index: number): void {
  if (kind === 'text' || kind === 'data' || kind === 'file') return;
  throw new TypeError(
    `message.parts[${index}].kind must be "text", "data" or "file" in A2A 0.3, ` +
      `got ${kind === undefined ? 'none' : JSON.stringify(kind).slice(0, 40)}`,
  );
}

/**
 * One part of either generation. `strictGeneration` '0.3' holds a request to the 0.3 schema, where
 * `kind` is required: a part without one is refused rather than guessed to be text (the agent
 * reads requests this way; the rig reads untrusted agents' answers leniently, without it).
 */
export function partFromWire(raw: unknown, index: number, strictGeneration?: Generation): Part {
  if (!isObject(raw)) throw new TypeError(`message.parts[${index}] must be an object`);
  const metadata = isObject(raw.metadata) ? { metadata: raw.metadata } : {};
  const kind = raw.kind;
  if (strictGeneration === '0.3') checkV03Kind(kind, index);
  if (typeof raw.text === 'string' && kindAllows(kind, 'text')) return { text: raw.text, ...metadata };
  if ('data' in raw && kindAllows(kind, 'data')) return { data: raw.data, ...metadata };
  if (kind === 'file' && isObject(raw.file)) return { ...fileFields(raw.file, V03_FILE_FIELDS), ...metadata };
  if (typeof raw.url === 'string' || typeof raw.raw === 'string')
    return { ...fileFields(raw, FILE_FIELDS), ...metadata };
  throw new TypeError(`message.parts[${index}] is not a text, data or file part`);
}

function roleFromWire(raw: unknown): Role {
  if (raw === 'user' || raw === 'ROLE_USER') return 'ROLE_USER';
  if (raw === 'agent' || raw === 'ROLE_AGENT') return 'ROLE_AGENT';
  throw new TypeError('message.role must be "user"/"agent" (v0.3) or "ROLE_USER"/"ROLE_AGENT" (v1.0)');
}

function optionalString(raw: JsonObject, key: string): string | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TypeError(`message.${key} must be a string`);
  return value;
}

/**
 * A Message of either generation, as canonical. Throws TypeError naming the first bad field.
 * `strictGeneration` '0.3' also requires what the 0.3 schema requires (`parts`, each part's `kind`).
 */
export function messageFromWire(raw: unknown, strictGeneration?: Generation): Message {
  if (!isObject(raw)) throw new TypeError('message must be an object');
  const messageId = optionalString(raw, 'messageId');
  if (!messageId) throw new TypeError('message.messageId is required');
  if (strictGeneration === '0.3' && raw.parts === undefined)
    throw new TypeError('message.parts is required in A2A 0.3');
  // v1.0 ProtoJSON leaves an empty list out: absent parts are [].
  const parts = raw.parts ?? [];
  if (!Array.isArray(parts)) throw new TypeError('message.parts must be an array');
  const message: Message = {
    messageId,
    role: roleFromWire(raw.role),
    parts: parts.map((p, i) => partFromWire(p, i, strictGeneration)),
  };
  const contextId = optionalString(raw, 'contextId');
  const taskId = optionalString(raw, 'taskId');
  if (contextId) message.contextId = contextId;
  if (taskId) message.taskId = taskId;
  if (raw.metadata !== undefined && raw.metadata !== null) {
    if (!isObject(raw.metadata)) throw new TypeError('message.metadata must be an object');
    message.metadata = raw.metadata;
  }
  if (Array.isArray(raw.extensions))
    message.extensions = raw.extensions.filter((e): e is string => typeof e === 'string');
  if (Array.isArray(raw.referenceTaskIds)) {
    message.referenceTaskIds = raw.referenceTaskIds.filter((e): e is string => typeof e === 'string');
  }
  return message;
}
