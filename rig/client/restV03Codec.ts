// The A2A 0.3 HTTP+JSON binding (the google.api.http routes of the 0.3 a2a.proto, under
// `{interface url}/v1/`), as restTransport.ts speaks it for a client of generation 0.3: the call
// comes as the 0.3 JSON-RPC method and params and goes out to its route with a 0.3 ProtoJSON body;
// the reply and each stream frame, 0.3 ProtoJSON, are read into the canonical shapes and handed on
// as the 0.3 JSON-RPC shapes (wireGenerations.ts), so everything above the transport reads one
// shape whatever the binding. An answer that is not 0.3 ProtoJSON is the agent's protocol fault.
import type { JsonObject, Message, StreamResponse, Task } from '../protocol/a2aTypes.ts';
import { sendRequestToProtoJsonV03 } from '../protocol/protoJsonV03Writer.ts';
import {
  sendResponseFromProtoJsonV03,
  streamResponseFromProtoJsonV03,
  taskFromProtoJsonV03,
} from '../protocol/protoJsonV03ResponseReader.ts';
import { jsonText } from '../protocol/jsonNesting.ts';
import { JsonRefusedError, parseAgentJson } from '../protocol/safeJson.ts';
import { messageFromWire, messageOnWire, streamEventOnWire, taskOnWire } from '../protocol/wireGenerations.ts';
import { restRoute, type RestRoute } from './restRoutes.ts';
import { TransportError } from './transportError.ts';

/** The 0.3 JSON-RPC methods, by the 1.0 name restRoutes.ts routes them under (0.3 has no ListTasks). */
const ROUTED = new Map([
  ['message/send', 'SendMessage'],
  ['message/stream', 'SendStreamingMessage'],
  ['tasks/get', 'GetTask'],
  ['tasks/cancel', 'CancelTask'],
  ['tasks/resubscribe', 'SubscribeToTask'],
]);

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The send params as a 0.3 ProtoJSON SendMessageRequest, a payload of any depth written as it came
 * (the deep-nesting scenarios send what JSON.stringify cannot write). Params that are not a message
 * are the rig's limit: a plain Error, never the agent's fault.
 */
function sendBody(method: string, paramsJson: string | undefined): string {
  try {
    const params: unknown = JSON.parse(paramsJson ?? '{}');
    if (!isObject(params)) throw new TypeError('the params are not an object');
    const configuration = isObject(params.configuration) ? params.configuration : undefined;
    const metadata = isObject(params.metadata) ? params.metadata : undefined;
    return jsonText(sendRequestToProtoJsonV03(messageFromWire(params.message), configuration, metadata));
  } catch (err) {
    throw new Error(`the rig cannot say these ${method} params in A2A 0.3 ProtoJSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** The route of one 0.3 call below the interface URL `base`. */
export function restV03Route(base: string, method: string, paramsJson: string | undefined): RestRoute {
  const routed = ROUTED.get(method);
  if (!routed) throw new TransportError('protocol', `the rig's HTTP+JSON 0.3 client has no route for ${method}`);
  const root = `${base.endsWith('/') ? base.slice(0, -1) : base}/v1`;
  if (routed === 'SendMessage' || routed === 'SendStreamingMessage')
    return restRoute(root, routed, sendBody(method, paramsJson));
  const parsed: unknown = paramsJson === undefined ? {} : JSON.parse(paramsJson);
  const params = isObject(parsed) ? parsed : {};
  // A cancel's body is the 0.3 CancelTaskRequest (`name`, from the path): nothing of the params goes in it.
  return restRoute(root, routed, JSON.stringify({ id: params.id, historyLength: params.historyLength }));
}

function resultOf(method: string, body: unknown): JsonObject {
  if (method !== 'message/send') return taskOnWire(taskFromProtoJsonV03(body), '0.3');
  const response = sendResponseFromProtoJsonV03(body);
  return 'task' in response
    ? taskOnWire(response.task as Task, '0.3')
    : messageOnWire(response.message as Message, '0.3');
}

/** A 2xx reply's body (0.3 ProtoJSON) as the 0.3 JSON-RPC result of `method`. */
export function restV03Result(method: string, body: unknown, what: string, status: number): JsonObject {
  try {
    return resultOf(method, body);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    throw new TransportError(
      'protocol',
      `${what}: the HTTP ${status} reply is not A2A 0.3 ProtoJSON: ${err.message}`,
      status,
    );
  }
}

/** One SSE frame's data (a 0.3 ProtoJSON StreamResponse) as the 0.3 JSON-RPC event, as JSON text. */
export function restV03Frame(data: string, what: string): string {
  let event: StreamResponse;
  try {
    event = streamResponseFromProtoJsonV03(parseAgentJson(data, "the agent's event"));
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new TransportError('too-large', `${what}: ${err.message}`);
    throw new TransportError(
      'protocol',
      `${what}: a stream frame is not an A2A 0.3 ProtoJSON StreamResponse: ${(err as Error).message}`,
    );
  }
  return JSON.stringify(streamEventOnWire(event, '0.3'));
}
