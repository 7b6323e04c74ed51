// The A2A operations of the agent, independent of binding (JSON-RPC, HTTP+JSON or gRPC): parameters in,
// canonical results out, A2AError for every refusal. Both bindings call these and only frame them.
import { randomUUID } from 'node:crypto';
import type { Generation, JsonObject, Message, TaskState } from '../protocol/a2aTypes.ts';
import { TERMINAL_STATES, isSettled } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_UNSUPPORTED_OPERATION,
  HITL_RESPONSE_INVALID,
  HITL_RESPONSE_INVALID_MESSAGE,
  JSONRPC_INVALID_PARAMS,
} from '../protocol/errorCodes.ts';
import { HITL_RESPONSE_KEY, MAX_NESTING_DEPTH } from '../protocol/hitlPrompt.ts';
import { nestingDepth } from '../protocol/jsonNesting.ts';
import { messageFromWire, messageOnWire, sendResultOnWire, taskOnWire } from '../protocol/wireGenerations.ts';
import { carriesHitlAnswer, continueWithGate } from './decisionMessages.ts';
import {
  optionalBoolean,
  optionalCount,
  optionalString,
  optionalTaskState,
  pageSizeParam,
  pageTokenParam,
  withJsonNames,
} from './requestParams.ts';
import { ScriptError, scriptFor } from './script.ts';
import type { TaskEngine } from './taskEngine.ts';
import type { TaskRow } from './taskRow.ts';
import { openTaskStream, type EventSink } from './taskStream.ts';

/** ListTasks yields to the event loop after rendering this many tasks or bytes. */
const LIST_BATCH_TASKS = 8;
const LIST_BATCH_BYTES = 128 * 1024;
/** ListTasks pages rendered at once; the rest wait their turn (many at once finished together and
 * serialized their pages back to back, holding the event loop for all of them). */
const LIST_CONCURRENCY = 2;

/** Whole-request nesting bound; payloads have their own, tighter one (a 422). */
export const MAX_REQUEST_DEPTH = 128;

/** What a request activated, and who sent it (for acceptance decisions). */
export interface Activation {
  /** hitl-prompt/v1 was activated on this request. */
  hitl: boolean;
  /** The acceptance-criteria extension was activated on this request. */
  acceptance: boolean;
  /** The request's Authorization header (its principal decides acceptance gates). */
  authorization?: string;
}

export interface CallContext extends Activation {
  generation: Generation;
  /** The HTTP status of a successful send's reply when not 200: set by send (only the answer-202 fault does). */
  successStatus?: number;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function requireParams(params: unknown): JsonObject {
  if (!isObject(params)) throw new A2AError(JSONRPC_INVALID_PARAMS, 'params must be an object');
  return params;
}

/** Multi-word fields of the request messages, read under either ProtoJSON name (withJsonNames). */
const MESSAGE_FIELDS = ['messageId', 'contextId', 'taskId', 'referenceTaskIds'] as const;
const PART_FIELDS = ['mediaType'] as const;
const CONFIGURATION_FIELDS = [
  'acceptedOutputModes',
  'historyLength',
  'returnImmediately',
  'pushNotificationConfig',
  'taskPushNotificationConfig',
] as const;
const GET_FIELDS = ['historyLength'] as const;
const LIST_FIELDS = [
  'pageSize',
  'pageToken',
  'contextId',
  'historyLength',
  'includeArtifacts',
  'statusTimestampAfter',
] as const;

/** The message with its (and its parts') fields under their JSON names; anything else as it was. */
function messageWithJsonNames(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const message = withJsonNames(raw, MESSAGE_FIELDS);
  if (!Array.isArray(message.parts)) return message;
  return { ...message, parts: message.parts.map((part) => (isObject(part) ? withJsonNames(part, PART_FIELDS) : part)) };
}

function taskIdParam(params: unknown): string {
  const p = requireParams(params);
  if (typeof p.id !== 'string' || p.id.length === 0)
    throw new A2AError(JSONRPC_INVALID_PARAMS, 'params.id (the task id) is required');
  return p.id;
}

export class AgentOperations {
  private listing = 0;
  private readonly listWaiters: Array<() => void> = [];

  constructor(private readonly engine: TaskEngine) {}

  private get depthLimited(): boolean {
    return !this.engine.faults.has('no-depth-limit');
  }

  /** Checks depth before anything walks the request recursively, then reads the message. */
  private intake(params: unknown, ctx: CallContext): { message: Message; config: JsonObject } {
    const p = requireParams(params);
    if (this.depthLimited && nestingDepth(p, MAX_REQUEST_DEPTH) > MAX_REQUEST_DEPTH) {
      const payload =
        isObject(p.message) && isObject(p.message.metadata) && isObject(p.message.metadata[HITL_RESPONSE_KEY])
          ? (p.message.metadata[HITL_RESPONSE_KEY] as JsonObject).payload
          : undefined;
      if (nestingDepth(payload, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
        throw new A2AError(HITL_RESPONSE_INVALID, HITL_RESPONSE_INVALID_MESSAGE, {
          validation_errors: [
            { path: '', keyword: 'maxDepth', message: `must NOT nest deeper than ${MAX_NESTING_DEPTH} levels` },
          ],
        });
      }
      throw new A2AError(JSONRPC_INVALID_PARAMS, `request nests deeper than ${MAX_REQUEST_DEPTH} levels`);
    }
    let message: Message;
    try {
      message = messageFromWire(messageWithJsonNames(p.message), ctx.generation);
    } catch (err) {
      throw new A2AError(JSONRPC_INVALID_PARAMS, (err as Error).message);
    }
    // Both generations require a part (0.3's schema and 1.0's spec); 1.0's ProtoJSON writes none as absent.
    if (message.parts.length === 0)
      throw new A2AError(JSONRPC_INVALID_PARAMS, 'message.parts must hold at least one part');
    if (message.role !== 'ROLE_USER') throw new A2AError(JSONRPC_INVALID_PARAMS, 'message.role must be the user role');
    if (p.configuration !== undefined && p.configuration !== null && !isObject(p.configuration)) {
      throw new A2AError(JSONRPC_INVALID_PARAMS, 'params.configuration must be an object');
    }
    return { message, config: isObject(p.configuration) ? withJsonNames(p.configuration, CONFIGURATION_FIELDS) : {} };
  }

  /** `blocking`: the caller waits for the task to settle (createTask's `runNow`). */
  private startTask(message: Message, ctx: CallContext, blocking: boolean): { row?: TaskRow; reply?: Message } {
    let script;
    try {
      script = scriptFor(message);
    } catch (err) {
      if (err instanceof ScriptError) throw new A2AError(JSONRPC_INVALID_PARAMS, err.message);
      throw err;
    }
    if (script.messageOnly) {
      const reply: Message = {
        messageId: randomUUID(),
        role: 'ROLE_AGENT',
        contextId: message.contextId ?? randomUUID(),
        parts: [{ text: script.messageOnly.text }],
      };
      return { reply };
    }
    // The gate is checked before the task exists: invalid criteria create no task.
    const gate = this.engine.acceptance.prepare(message, ctx);
    return { row: this.engine.createTask(message, script, ctx.hitl, gate, blocking) };
  }

  async send(params: unknown, ctx: CallContext): Promise<JsonObject> {
    const { message, config } = this.intake(params, ctx);
    const historyLength = optionalCount(config.historyLength, 'configuration.historyLength');
    const blocking = ctx.generation === '1.0' ? config.returnImmediately !== true : config.blocking !== false;
    let taskId: string;
    let created: TaskRow | undefined;
    if (message.taskId) {
      taskId = continueWithGate(this.engine, message, ctx).task.id;
      // Reached only when the answer was accepted: a refused one has thrown its 409/422.
      if (this.engine.faults.has('answer-202') && carriesHitlAnswer(message)) ctx.successStatus = 202;
    } else {
      const started = this.startTask(message, ctx, blocking);
      if (started.reply)
        return ctx.generation === '1.0' ? { message: started.reply } : messageOnWire(started.reply, ctx.generation);
      created = started.row!;
      taskId = created.task.id;
    }
    const settled = blocking ? await this.engine.settled(taskId) : undefined;
    // The task this call created, found settled as its cached row: nothing outside this process
    // knows its id before this reply, so it is not read again (getRow asks SQLite whether another
    // process wrote the file since).
    const row = created !== undefined && settled === created.task ? created : this.engine.getRow(taskId);
    return sendResultOnWire(this.engine.view(row, historyLength), ctx.generation);
  }

  stream(params: unknown, ctx: CallContext, sink: EventSink): void {
    const { message } = this.intake(params, ctx);
    if (message.taskId) {
      openTaskStream({
        engine: this.engine,
        taskId: message.taskId,
        sink,
        closeWhen: isSettled,
        before: () => void continueWithGate(this.engine, message, ctx),
      });
      return;
    }
    const started = this.startTask(message, ctx, false);
    if (started.reply) {
      sink.open();
      sink.event({ message: started.reply });
      sink.close(false);
      return;
    }
    openTaskStream({ engine: this.engine, taskId: started.row!.task.id, sink, closeWhen: isSettled });
  }

  subscribe(params: unknown, sink: EventSink): void {
    const taskId = taskIdParam(params);
    const { state } = this.engine.getRow(taskId).task.status;
    if (TERMINAL_STATES.has(state)) {
      throw new A2AError(
        A2A_UNSUPPORTED_OPERATION,
        `task ${taskId} is ${state}; subscriptions need a task that is not terminal`,
      );
    }
    const silent = this.engine.faults.has('silent-resubscribe') && state === 'TASK_STATE_INPUT_REQUIRED';
    const closeWhen = (s: TaskState) => TERMINAL_STATES.has(s);
    openTaskStream({ engine: this.engine, taskId, sink, closeWhen, snapshot: !silent });
  }

  get(params: unknown, ctx: CallContext): JsonObject {
    const p = withJsonNames(requireParams(params), GET_FIELDS);
    const historyLength = optionalCount(p.historyLength, 'historyLength');
    return taskOnWire(this.engine.view(this.engine.getRow(taskIdParam(p)), historyLength), ctx.generation);
  }

  cancel(params: unknown, ctx: CallContext): JsonObject {
    return taskOnWire(this.engine.view(this.engine.cancel(taskIdParam(params))), ctx.generation);
  }

  /**
   * ListTasks, bounded (issue 9 item 12): pageSize defaults to limits.listDefaultPageSize and is
   * capped at listMaxPageSize; history defaults to none (historyLength 0) and is capped like any
   * view; the page ends early, with a nextPageToken, once its tasks pass listMaxBytes. It yields to
   * the event loop every few tasks or 128 KiB, so 16 concurrent pages cannot hold it in one go.
   */
  async list(params: unknown, ctx: CallContext): Promise<JsonObject> {
    if (this.listing >= LIST_CONCURRENCY) await new Promise<void>((resolve) => this.listWaiters.push(resolve));
    this.listing += 1;
    try {
      return await this.renderPage(params, ctx);
    } finally {
      this.listing -= 1;
      // Handed over on a later turn, so this page's reply is written before the next one renders.
      const next = this.listWaiters.shift();
      if (next) setImmediate(next);
    }
  }

  private async renderPage(params: unknown, ctx: CallContext): Promise<JsonObject> {
    const { listDefaultPageSize, listMaxPageSize, listMaxBytes } = this.engine.limits;
    if (params !== undefined && params !== null && !isObject(params))
      throw new A2AError(JSONRPC_INVALID_PARAMS, 'params must be an object');
    const p = isObject(params) ? withJsonNames(params, LIST_FIELDS) : {};
    const pageSize = pageSizeParam(p.pageSize, listDefaultPageSize, listMaxPageSize);
    const offset = pageTokenParam(p.pageToken);
    const wanted = optionalTaskState(p.status, 'status');
    const contextId = optionalString(p.contextId, 'contextId');
    const historyLength = optionalCount(p.historyLength, 'historyLength') ?? 0;
    const includeArtifacts = optionalBoolean(p.includeArtifacts, 'includeArtifacts') === true;
    const page = this.engine.outbox.listTasks({ state: wanted, contextId }, pageSize, offset);
    const tasks: JsonObject[] = [];
    let bytes = 0;
    let sinceYield = { tasks: 0, bytes: 0 };
    for (const listed of page.tasks) {
      if (sinceYield.tasks >= LIST_BATCH_TASKS || sinceYield.bytes >= LIST_BATCH_BYTES) {
        await new Promise((resolve) => setImmediate(resolve));
        sinceYield = { tasks: 0, bytes: 0 };
      }
      const history =
        historyLength > 0
          ? this.engine.outbox.recentHistory(
              listed.id,
              Math.min(historyLength, this.engine.limits.viewHistoryEntries),
              this.engine.limits.viewHistoryBytes,
            )
          : [];
      const artifacts = includeArtifacts ? this.engine.outbox.artifactsOf(listed.id) : [];
      const wire = taskOnWire({ ...listed, history, artifacts }, ctx.generation);
      const size = Buffer.byteLength(JSON.stringify(wire));
      // At least one task per page, or a single large task could never be listed.
      if (tasks.length > 0 && bytes + size > listMaxBytes) break;
      bytes += size;
      sinceYield = { tasks: sinceYield.tasks + 1, bytes: sinceYield.bytes + size };
      tasks.push(wire);
    }
    const next = offset + tasks.length;
    const nextPageToken = next < page.total ? String(next) : '';
    return { tasks, nextPageToken, pageSize, totalSize: page.total };
  }
}
