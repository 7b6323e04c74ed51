// The HTTP+JSON binding (A2A 1.0, and 0.3's under /v1/: restV03Codec.ts), spoken under the same
// calls as the JSON-RPC one: the client and the scenarios call `call`/`callRaw`/`stream` with a
// JSON-RPC method and params whatever the binding, and get back the JSON-RPC shapes (a result or an
// error object, an SSE stream of JSON-RPC frames). Here each call goes to its route (restRoutes.ts)
// on the same bounded keep-alive pool and SSE streams, a non-2xx reply is read back as the error it
// names (restErrors.ts), and each stream frame, a bare StreamResponse on this binding, is handed on
// framed as the JSON-RPC result it stands for, so that one reader (taskEventStream.ts) checks every
// binding's events. The generation is the call's (its A2A headers): 0.3's bodies are 0.3 ProtoJSON,
// converted both ways.
import type { Generation, JsonObject } from '../protocol/a2aTypes.ts';
import { JsonRefusedError, parseAgentJson } from '../protocol/safeJson.ts';
import type { A2AHeaders } from './a2aHeaders.ts';
import { JsonRpcTransport } from './jsonRpcTransport.ts';
import { restErrorOf } from './restErrors.ts';
import { restRoute, type RestRoute } from './restRoutes.ts';
import { restV03Frame, restV03Result, restV03Route } from './restV03Codec.ts';
import type { RpcBody } from './rpcReply.ts';
import type { SseEvent } from './sseReader.ts';
import { isRefusedEntry, TransportError } from './transportError.ts';
import type { ExchangeOptions, RpcReply, StreamReply } from './transportTypes.ts';

function parseBody(text: string, what: string, status: number): unknown {
  if (text.length === 0) return undefined;
  try {
    return parseAgentJson(text, "the agent's reply");
  } catch (err) {
    if (err instanceof JsonRefusedError) throw new TransportError('too-large', `${what}: ${err.message}`, status);
    if (status >= 200 && status <= 299)
      throw new TransportError(
        'protocol',
        `${what}: HTTP ${status} body is not JSON: ${JSON.stringify(text.slice(0, 120))}`,
        status,
      );
    return text;
  }
}

/** A reply of the binding as the JSON-RPC body it stands for; throws when it names no A2A outcome. */
export function restReply(text: string, what: string, status: number, method?: string): RpcBody {
  const body = parseBody(text, what, status);
  if (status >= 200 && status <= 299) return { ok: true, result: body };
  const error = restErrorOf(status, body, method);
  if (error) return { ok: false, error };
  throw new TransportError(
    'protocol',
    `${what}: HTTP ${status} is not an answer of the HTTP+JSON binding: ${JSON.stringify(text.slice(0, 120))}`,
    status,
  );
}

/** One SSE frame of the binding as the JSON-RPC frame of request `id` it stands for. */
function framed(id: number, event: SseEvent, generation: Generation, what: string): SseEvent {
  const data = event.data.trimStart();
  if (event.event !== 'error' && !data.startsWith('{"error"')) {
    const result = generation === '0.3' ? restV03Frame(data, what) : data;
    return { ...event, data: `{"jsonrpc":"2.0","id":${id},"result":${result}}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    body = data;
  }
  const status = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  const error = restErrorOf(typeof status === 'number' ? status : 500, body) ?? {
    code: -32603,
    message: `an error event the rig cannot read: ${data.slice(0, 120)}`,
  };
  return { ...event, data: JSON.stringify({ jsonrpc: '2.0', id, error }) };
}

async function* framedEvents(
  id: number,
  events: AsyncGenerator<SseEvent>,
  generation: Generation,
  what: string,
): AsyncGenerator<SseEvent> {
  for await (const event of events) yield framed(id, event, generation, what);
}

function routeOf(url: string, method: string, paramsJson: string | undefined, a2a: A2AHeaders): RestRoute {
  return a2a.generation === '0.3' ? restV03Route(url, method, paramsJson) : restRoute(url, method, paramsJson);
}

export class RestTransport extends JsonRpcTransport {
  /** The reply read back; a 401/403 that names no A2A error is access refused (the card's securitySchemes said). */
  private reply(text: string, what: string, status: number, method: string): RpcBody {
    if (isRefusedEntry(status) && !restErrorOf(status, parseBody(text, what, status), method))
      throw this.refused(what, status);
    return restReply(text, what, status, method);
  }

  override async callRaw(
    url: string,
    method: string,
    paramsJson: string | undefined,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<RpcReply> {
    const route = routeOf(url, method, paramsJson, a2a);
    const what = `${route.verb} ${this.describeUrl(route.url)} (${method})`;
    const { res, meta } = await this.exchange(route.url, route.verb, route.body, a2a, what, options);
    const reply = this.reply(res.text, what, res.status, method) as RpcReply;
    if (reply.ok && a2a.generation === '0.3') reply.result = restV03Result(method, reply.result, what, res.status);
    reply.meta = meta;
    return reply;
  }

  override async stream(
    url: string,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<StreamReply> {
    const id = this.nextId++;
    const route = routeOf(url, method, JSON.stringify(params as JsonObject), a2a);
    const what = `${route.verb} ${this.describeUrl(route.url)} (${method})`;
    const reply = await this.sse.open(route.url, what, id, method, params, this.activated(a2a), options, {
      ...route,
      readReply: (text, status) => this.reply(text, what, status, method),
    });
    if (reply.kind === 'json') return reply;
    return { ...reply, events: framedEvents(id, reply.events, a2a.generation, what) };
  }
}
