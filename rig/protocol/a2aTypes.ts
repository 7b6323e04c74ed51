// A2A shapes in their v1.0 JSON form (camelCase, enum names). This is the canonical form inside the
// rig and the agent; `wireGenerations.ts` converts to and from v0.3 at the edges.

export type Generation = '0.3' | '1.0';

export type TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_AUTH_REQUIRED';

export type Role = 'ROLE_USER' | 'ROLE_AGENT';

export type JsonObject = Record<string, unknown>;

export interface Part {
  text?: string;
  data?: unknown;
  url?: string;
  raw?: string;
  metadata?: JsonObject;
  filename?: string;
  mediaType?: string;
}

export interface Message {
  messageId: string;
  contextId?: string;
  taskId?: string;
  role: Role;
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
}

export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp: string;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: JsonObject;
  extensions?: string[];
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts: Artifact[];
  history: Message[];
  metadata?: JsonObject;
}

export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: JsonObject;
}

export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: JsonObject;
}

/** v1.0 StreamResponse: exactly one of the four members is set. */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
]);

export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** A blocking send returns, and a send stream closes, once the task is terminal or interrupted. */
export function isSettled(state: TaskState): boolean {
  return TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state);
}

/** The operations both generations share, whatever their method names. */
export type Operation = 'send' | 'stream' | 'get' | 'cancel' | 'subscribe' | 'list';

export const METHOD_NAMES: Record<Generation, Record<Operation, string | undefined>> = {
  '0.3': {
    send: 'message/send',
    stream: 'message/stream',
    get: 'tasks/get',
    cancel: 'tasks/cancel',
    subscribe: 'tasks/resubscribe',
    list: undefined,
  },
  '1.0': {
    send: 'SendMessage',
    stream: 'SendStreamingMessage',
    get: 'GetTask',
    cancel: 'CancelTask',
    subscribe: 'SubscribeToTask',
    list: 'ListTasks',
  },
};

export const VERSION_HEADER = 'a2a-version';
export const EXTENSIONS_HEADER_V1 = 'a2a-extensions';
export const EXTENSIONS_HEADER_V03 = 'x-a2a-extensions';
