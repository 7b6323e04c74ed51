// ProtoJSON for the gRPC binding: the rig's canonical A2A 1.0 shapes (a2aTypes.ts, the JSON the
// HTTP+JSON binding carries) to and from the objects protobufjs encodes, for the messages of
// a2a.proto and status.proto. protobufjs's object form already uses the JSON names (camelCase), enum
// names and base64 bytes; what it does not know is ProtoJSON's special forms of the well-known
// types: a google.protobuf.Struct / Value / ListValue is plain JSON (not `{fields: {k: {stringValue}}}`)
// and a Timestamp is an RFC 3339 string (not `{seconds, nanos}`). This module walks a message by
// its reflection and converts exactly those, so the agent's gRPC binding and the rig's gRPC client
// share one conversion. Like any ProtoJSON writer, decoding leaves out fields holding their default.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const A2A_PROTO = join(HERE, 'a2a.proto');
export const STATUS_PROTO = join(HERE, 'status.proto');
export const A2A_PACKAGE = 'lf.a2a.v1';

/** protobufjs toObject options matching ProtoJSON (and the options the gRPC service loads with). */
export const OBJECT_OPTIONS = { longs: String, enums: String, bytes: String, defaults: false, oneofs: false } as const;

const root = protobuf.loadSync([A2A_PROTO, STATUS_PROTO]).resolveAll();

export function protoType(name: string): protobuf.Type {
  return root.lookupType(name.includes('.') ? name : `${A2A_PACKAGE}.${name}`);
}

export function protoService(name: string): protobuf.Service {
  return root.lookupService(`${A2A_PACKAGE}.${name}`);
}

type Json = unknown;
type Direction = 'toProto' | 'fromProto';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueToProto(value: Json): Record<string, unknown> {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueToProto) } };
  if (isObject(value)) return { structValue: structToProto(value) };
  throw new TypeError(`a google.protobuf.Value cannot hold ${typeof value}`);
}

function structToProto(value: Json): Record<string, unknown> {
  if (!isObject(value)) throw new TypeError('a google.protobuf.Struct must be a JSON object');
  return { fields: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, valueToProto(v)])) };
}

function valueFromProto(value: Json): Json {
  if (!isObject(value)) return null;
  if ('structValue' in value) return structFromProto(value.structValue);
  if ('listValue' in value) {
    const list = value.listValue as { values?: Json[] };
    return (list.values ?? []).map(valueFromProto);
  }
  if ('numberValue' in value) return Number(value.numberValue);
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  return null;
}

function structFromProto(value: Json): Record<string, Json> {
  const fields = isObject(value) && isObject(value.fields) ? value.fields : {};
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, valueFromProto(v)]));
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

function timestampToProto(value: Json): { seconds: string; nanos: number } {
  const match = typeof value === 'string' ? RFC3339.exec(value) : null;
  const millis = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(millis)) throw new TypeError(`not an RFC 3339 timestamp: ${String(value).slice(0, 40)}`);
  return { seconds: String(Math.floor(millis / 1000)), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

/** ProtoJSON's form: UTC, 'Z', and 0, 3, 6 or 9 fractional digits. */
function timestampFromProto(value: Json): string {
  const t = isObject(value) ? value : {};
  const seconds = Number(t.seconds ?? 0);
  const nanos = Number(t.nanos ?? 0);
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = String(nanos).padStart(9, '0');
  const width = digits.endsWith('000000') ? 3 : digits.endsWith('000') ? 6 : 9;
  return `${base}.${digits.slice(0, width)}Z`;
}

const WELL_KNOWN: Record<string, Record<Direction, (value: Json) => Json>> = {
  '.google.protobuf.Struct': { toProto: structToProto, fromProto: structFromProto },
  '.google.protobuf.Value': { toProto: valueToProto, fromProto: valueFromProto },
  '.google.protobuf.Timestamp': { toProto: timestampToProto, fromProto: timestampFromProto },
};

function convertField(field: protobuf.Field, value: Json, direction: Direction): Json {
  const type = field.resolvedType;
  if (!(type instanceof protobuf.Type)) return value;
  const one = (v: Json) => convert(type, v, direction);
  if (field.repeated && Array.isArray(value)) return value.map(one);
  if (field.map && isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)]));
  return one(value);
}

function convert(type: protobuf.Type, value: Json, direction: Direction): Json {
  const special = WELL_KNOWN[type.fullName];
  if (special) return special[direction](value);
  if (!isObject(value)) return value;
  const out: Record<string, Json> = { ...value };
  for (const field of type.fieldsArray) {
    const present = out[field.name];
    if (present !== undefined && present !== null) out[field.name] = convertField(field, present, direction);
  }
  return out;
}

/** A canonical (ProtoJSON) object as the object protobufjs `fromObject` reads for this message type. */
export function toProtoObject(typeName: string, json: Json): Record<string, unknown> {
  return convert(protoType(typeName), json, 'toProto') as Record<string, unknown>;
}

/** The object protobufjs `toObject` wrote (with OBJECT_OPTIONS) as canonical ProtoJSON. */
export function fromProtoObject<T = Record<string, unknown>>(typeName: string, object: Json): T {
  return convert(protoType(typeName), object, 'fromProto') as T;
}

/** Binary protobuf of a canonical object; TypeError when it does not fit the message type. */
export function encodeMessage(typeName: string, json: Json): Buffer {
  const type = protoType(typeName);
  return Buffer.from(type.encode(type.fromObject(toProtoObject(typeName, json))).finish());
}

export function decodeMessage<T = Record<string, unknown>>(typeName: string, bytes: Uint8Array): T {
  const type = protoType(typeName);
  return fromProtoObject<T>(typeName, type.toObject(type.decode(bytes), OBJECT_OPTIONS));
}
