// Where each call the client makes goes on the A2A 1.0 HTTP+JSON binding (§11; the routes of the
// reference agent's restBinding.ts and a2a-sdk's rest_routes.py), below the interface URL the card
// names, so an agent mounted under a prefix (`/agents/{id}`) is reached under it. The call is given
// as the client's JSON-RPC method and params: the send params are the HTTP+JSON request body as they
// are (SendMessageRequest is the same ProtoJSON object on both bindings).
import type { JsonObject } from '../protocol/a2aTypes.ts';
import { TransportError } from './transportError.ts';

export interface RestRoute {
  verb: 'GET' | 'POST';
  url: string;
  /** JSON text, for a POST. */
  body?: string;
}

/** ListTasks request fields that go into the query string (A2A 1.0 ListTasksRequest). */
const LIST_QUERY = [
  'contextId',
  'status',
  'pageSize',
  'pageToken',
  'historyLength',
  'statusTimestampAfter',
  'includeArtifacts',
];

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function taskPath(params: JsonObject, method: string): string {
  if (typeof params.id !== 'string')
    throw new TransportError('protocol', `${method} over HTTP+JSON needs a string task id in its params`);
  return `/tasks/${encodeURIComponent(params.id)}`;
}

function query(params: JsonObject, names: readonly string[]): string {
  const q = new URLSearchParams();
  for (const name of names) {
    const v = params[name];
    if (v !== undefined && v !== null) q.set(name, String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

function withoutId(params: JsonObject): string {
  const rest: JsonObject = { ...params };
  delete rest.id;
  return JSON.stringify(rest);
}

/**
 * The route of one call below `base`. `paramsJson` is the params as JSON text: sent verbatim as the
 * body of a send (the deep-nesting scenarios send what JSON.stringify cannot make); read for the rest.
 */
export function restRoute(base: string, method: string, paramsJson: string | undefined): RestRoute {
  const root = base.endsWith('/') ? base.slice(0, -1) : base;
  if (method === 'SendMessage' || method === 'SendStreamingMessage') {
    const action = method === 'SendMessage' ? 'send' : 'stream';
    return { verb: 'POST', url: `${root}/message:${action}`, body: paramsJson ?? '{}' };
  }
  const parsed: unknown = paramsJson === undefined ? {} : JSON.parse(paramsJson);
  const params = isObject(parsed) ? parsed : {};
  switch (method) {
    case 'GetTask':
      return { verb: 'GET', url: `${root}${taskPath(params, method)}${query(params, ['historyLength'])}` };
    case 'CancelTask':
      return { verb: 'POST', url: `${root}${taskPath(params, method)}:cancel`, body: withoutId(params) };
    case 'SubscribeToTask':
      return { verb: 'GET', url: `${root}${taskPath(params, method)}:subscribe` };
    case 'ListTasks':
      return { verb: 'GET', url: `${root}/tasks${query(params, LIST_QUERY)}` };
    default:
      throw new TransportError('protocol', `the rig's HTTP+JSON client has no route for ${method}`);
  }
}
