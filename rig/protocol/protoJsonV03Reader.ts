// A2A 0.3's HTTP+JSON binding speaks ProtoJSON of the 0.3 a2a.proto (package a2a.v1, served under
// /v1/); protoJsonV03Writer.ts says how its shapes differ. This file reads them into the canonical
// (v1.0) shapes the agent works in.
// Reading follows ProtoJSON: every field is accepted under its JSON name (`messageId`) or its proto
// name (`message_id`), enums by name or number, and an unknown field is refused, as ProtoJSON
// parsers do by default. Unknown shapes raise TypeError naming the field.
import type { JsonObject, Message, Part } from './a2aTypes.ts';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** [JSON name, proto name] of each field of a message type, in the order they are read. */
export type Fields = ReadonlyArray<readonly [string, string]>;

/**
 * The object's fields by JSON name. A field given under both names, or a key that is neither, is
 * refused. `null` stands for the default, as in ProtoJSON, so it reads as absent.
 */
export function readFields(raw: unknown, fields: Fields, what: string): JsonObject {
  if (!isObject(raw)) throw new TypeError(`${what} must be an object`);
  const known = new Map<string, string>();
  for (const [json, proto] of fields) {
    known.set(json, json);
    known.set(proto, json);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(raw)) {
    const name = known.get(key);
    if (name === undefined) {
      throw new TypeError(
        `${what}.${key} is not a field of A2A 0.3 ProtoJSON (fields: ${fields.map(([json]) => json).join(', ')})`,
      );
    }
    if (name in out) throw new TypeError(`${what}.${name} is given twice (as ${name} and as its proto name)`);
    if (value !== null) out[name] = value;
  }
  return out;
}

export function optionalStringField(fields: JsonObject, name: string, what: string): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${what}.${name} must be a string`);
  return value;
}

export function optionalStruct(fields: JsonObject, name: string, what: string): JsonObject | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (!isObject(value)) throw new TypeError(`${what}.${name} must be an object (a google.protobuf.Struct)`);
  return value;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function partFromProtoJson(raw: unknown, what: string): Part {
  const f = readFields(
    raw,
    [
      ['text', 'text'],
      ['file', 'file'],
      ['data', 'data'],
      ['metadata', 'metadata'],
    ],
    what,
  );
  const metadata = optionalStruct(f, 'metadata', what);
  const common = metadata ? { metadata } : {};
  const set = ['text', 'file', 'data'].filter((k) => f[k] !== undefined);
  if (set.length !== 1) {
    throw new TypeError(
      `${what} must carry exactly one of text, file, data (got ${set.length === 0 ? 'none' : set.join(' and ')})`,
    );
  }
  if (f.text !== undefined) {
    if (typeof f.text !== 'string') throw new TypeError(`${what}.text must be a string`);
    return { text: f.text, ...common };
  }
  if (f.data !== undefined) {
    const d = readFields(f.data, [['data', 'data']], `${what}.data`);
    const data = optionalStruct(d, 'data', `${what}.data`);
    if (data === undefined) throw new TypeError(`${what}.data.data (the DataPart's object) is required`);
    return { data, ...common };
  }
  const where = `${what}.file`;
  const file = readFields(
    f.file,
    [
      ['fileWithUri', 'file_with_uri'],
      ['fileWithBytes', 'file_with_bytes'],
      ['mimeType', 'mime_type'],
      ['name', 'name'],
    ],
    where,
  );
  const uri = optionalStringField(file, 'fileWithUri', where);
  const bytes = optionalStringField(file, 'fileWithBytes', where);
  if ((uri === undefined) === (bytes === undefined))
    throw new TypeError(`${where} must carry exactly one of fileWithUri, fileWithBytes`);
  if (bytes !== undefined && !BASE64.test(bytes)) throw new TypeError(`${where}.fileWithBytes must be base64`);
  const mimeType = optionalStringField(file, 'mimeType', where);
  const name = optionalStringField(file, 'name', where);
  return {
    ...(uri !== undefined ? { url: uri } : { raw: bytes }),
    ...(mimeType ? { mediaType: mimeType } : {}),
    ...(name ? { filename: name } : {}),
    ...common,
  };
}

const ROLES = new Map<unknown, Message['role']>([
  ['ROLE_USER', 'ROLE_USER'],
  [1, 'ROLE_USER'],
  ['ROLE_AGENT', 'ROLE_AGENT'],
  [2, 'ROLE_AGENT'],
]);

const MESSAGE_FIELDS: Fields = [
  ['messageId', 'message_id'],
  ['contextId', 'context_id'],
  ['taskId', 'task_id'],
  ['role', 'role'],
  ['content', 'content'],
  ['metadata', 'metadata'],
  ['extensions', 'extensions'],
];

/** A 0.3 ProtoJSON Message as canonical. An empty `content` is refused: a message says something. */
export function messageFromProtoJsonV03(raw: unknown, what = 'message'): Message {
  const f = readFields(raw, MESSAGE_FIELDS, what);
  const messageId = optionalStringField(f, 'messageId', what);
  if (!messageId) throw new TypeError(`${what}.messageId is required`);
  const role = ROLES.get(f.role);
  if (!role) throw new TypeError(`${what}.role must be ROLE_USER or ROLE_AGENT, got ${JSON.stringify(f.role ?? null)}`);
  const content = f.content ?? [];
  if (!Array.isArray(content)) throw new TypeError(`${what}.content must be an array of parts`);
  if (content.length === 0) throw new TypeError(`${what}.content must list at least one part`);
  const message: Message = {
    messageId,
    role,
    parts: content.map((p, i) => partFromProtoJson(p, `${what}.content[${i}]`)),
  };
  const contextId = optionalStringField(f, 'contextId', what);
  const taskId = optionalStringField(f, 'taskId', what);
  if (contextId) message.contextId = contextId;
  if (taskId) message.taskId = taskId;
  const metadata = optionalStruct(f, 'metadata', what);
  if (metadata) message.metadata = metadata;
  if (f.extensions !== undefined) {
    if (!Array.isArray(f.extensions) || !f.extensions.every((e) => typeof e === 'string'))
      throw new TypeError(`${what}.extensions must be an array of strings`);
    if (f.extensions.length > 0) message.extensions = f.extensions as string[];
  }
  return message;
}

const CONFIG_FIELDS: Fields = [
  ['acceptedOutputModes', 'accepted_output_modes'],
  ['pushNotification', 'push_notification'],
  ['historyLength', 'history_length'],
  ['blocking', 'blocking'],
];

/**
 * A 0.3 SendMessageRequest (`{message|request, configuration, metadata}`) as the canonical (v1.0)
 * SendMessage params the agent's operations take: 0.3's `blocking: false` becomes 1.0's
 * `returnImmediately: true`; historyLength is passed on for the operations to check.
 */
export function sendRequestFromProtoJsonV03(raw: unknown): JsonObject {
  const f = readFields(
    raw,
    [
      ['message', 'request'],
      ['configuration', 'configuration'],
      ['metadata', 'metadata'],
    ],
    'request',
  );
  if (f.message === undefined) throw new TypeError('request.message is required');
  const message = messageFromProtoJsonV03(f.message);
  const params: JsonObject = { message };
  if (f.configuration !== undefined) {
    const c = readFields(f.configuration, CONFIG_FIELDS, 'configuration');
    const configuration: JsonObject = {};
    if (c.acceptedOutputModes !== undefined) {
      if (!Array.isArray(c.acceptedOutputModes) || !c.acceptedOutputModes.every((m) => typeof m === 'string')) {
        throw new TypeError('configuration.acceptedOutputModes must be an array of strings');
      }
      configuration.acceptedOutputModes = c.acceptedOutputModes;
    }
    if (c.historyLength !== undefined) configuration.historyLength = c.historyLength;
    if (c.blocking !== undefined) {
      if (typeof c.blocking !== 'boolean') throw new TypeError('configuration.blocking must be a boolean');
      if (!c.blocking) configuration.returnImmediately = true;
    }
    params.configuration = configuration;
  }
  const metadata = optionalStruct(f, 'metadata', 'request');
  if (metadata) params.metadata = metadata;
  return params;
}
