// The A2A 1.0 gRPC binding (lf.a2a.v1.A2AService, rig/protocol/grpc/a2a.proto), spoken under the
// same calls as the JSON-RPC one (jsonRpcTransport.ts): the client and the scenarios call with a
// JSON-RPC method and params and get back the JSON-RPC shapes. The 1.0 method names are the gRPC
// method names and the params are the request messages (the service's serializers speak the rig's
// canonical ProtoJSON). A status with an A2A error reads back as that error (grpcStatus.ts), its
// HTTP status the one the error maps to (the checks that want 409/422 read the same figure on every
// binding); a status that names none (UNAVAILABLE, DEADLINE_EXCEEDED, UNAUTHENTICATED) is the
// transport failing. A server stream's messages are handed on as JSON-RPC frames, so one reader
// (taskEventStream.ts) checks every binding's events. The agent card stays an HTTP document.
import {
  Metadata,
  credentials as grpcCredentials,
  makeGenericClientConstructor,
  status as GrpcStatus,
  type Client,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { httpStatusFor } from '../protocol/errorCodes.ts';
import { A2A_SERVICE, GRPC_EXTENSIONS_KEY } from '../protocol/grpc/a2aService.ts';
import { fromGrpcError } from '../protocol/grpc/grpcStatus.ts';
import { a2aRequestHeaders, type A2AHeaders } from './a2aHeaders.ts';
import type { ByteTally } from './byteTally.ts';
import { credentialHeaders, credentialTls, type Credentials } from './credentials.ts';
import { JsonRpcTransport } from './jsonRpcTransport.ts';
import type { RpcBody } from './rpcReply.ts';
import type { SseEvent } from './sseReader.ts';
import { TransportError, type TransportFailure } from './transportError.ts';
import type { ExchangeMeta, ExchangeOptions, RpcReply, StreamReply } from './transportTypes.ts';

const ServiceClient = makeGenericClientConstructor(A2A_SERVICE, 'A2AService');
const UNARY = new Set(['SendMessage', 'GetTask', 'CancelTask', 'ListTasks']);
const STREAMING = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** Statuses that are the connection's, not an answer of the agent's. */
const TRANSPORT_STATUSES: Partial<Record<GrpcStatus, TransportFailure>> = {
  [GrpcStatus.UNAVAILABLE]: 'connect',
  [GrpcStatus.DEADLINE_EXCEEDED]: 'timeout',
  [GrpcStatus.CANCELLED]: 'aborted',
  [GrpcStatus.UNAUTHENTICATED]: 'protocol',
  [GrpcStatus.PERMISSION_DENIED]: 'protocol',
};
/** The HTTP status a refusal of access stands for, so the rig's 401/403 reading applies here too. */
const ACCESS_HTTP: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
};

/**
 * A method's path and its (de)serializers, counting the message bytes into the call's tally (the
 * protobuf messages; HTTP/2 and gRPC framing are not seen from here).
 */
function codecOf(method: string, tally: ByteTally | undefined) {
  const definition = A2A_SERVICE[method]!;
  const serialize = (value: unknown): Buffer => {
    const bytes = definition.requestSerialize(value);
    if (tally) tally.sent += bytes.length;
    return bytes;
  };
  const deserialize = (bytes: Buffer): unknown => {
    if (tally) tally.received += bytes.length;
    return definition.responseDeserialize(bytes);
  };
  return { path: definition.path, serialize, deserialize };
}

/** The call's metadata: the user's credentials (as headers are on HTTP), then the A2A service parameters. */
function metadataOf(a2a: A2AHeaders, credentials: Credentials): Metadata {
  const metadata = new Metadata();
  const headers = { ...credentialHeaders(credentials, a2a.bearerToken !== undefined), ...a2aRequestHeaders(a2a) };
  for (const [name, value] of Object.entries(headers)) metadata.set(name.toLowerCase(), value);
  return metadata;
}

function echoed(metadata: Metadata | undefined): string[] {
  if (!metadata) return [];
  return metadata
    .get(GRPC_EXTENSIONS_KEY)
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function parseParams(method: string, paramsJson: string | undefined): unknown {
  try {
    return paramsJson === undefined ? {} : JSON.parse(paramsJson);
  } catch (err) {
    // 100,000 levels deep is beyond JSON.parse and protobuf alike: the rig's limit, said as such.
    throw new TransportError(
      'protocol',
      `the rig cannot encode these ${method} params for gRPC (${(err as Error).message}); ` +
        'the deepest payloads are sent over JSON-RPC or HTTP+JSON only',
    );
  }
}

export class GrpcTransport extends JsonRpcTransport {
  private readonly clients = new Map<string, Client>();

  private client(url: string): Client {
    let client = this.clients.get(url);
    if (client) return client;
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    const secure = u.protocol === 'https:' ? this.channelTls() : grpcCredentials.createInsecure();
    client = new ServiceClient(`${u.hostname}:${port}`, secure, {
      'grpc.max_receive_message_length': this.limits.maxResponseBytes,
    });
    this.clients.set(url, client);
    return client;
  }

  /** TLS with the user's trust: a private CA beside the system roots, or no verification (--insecure). */
  private channelTls() {
    const tls = credentialTls(this.credentials);
    const ca = tls.ca === undefined ? null : Buffer.from([tls.ca].flat().join('\n'));
    const skip = tls.rejectUnauthorized === false ? { checkServerIdentity: () => undefined } : {};
    return grpcCredentials.createSsl(ca, null, null, skip);
  }

  /** An error status as the JSON-RPC error it stands for, or the transport failure it is. */
  private failure(err: ServiceError, what: string): { body: RpcBody; httpStatus: number } {
    const { error, info } = fromGrpcError(err);
    const kind = TRANSPORT_STATUSES[err.code as GrpcStatus];
    const access = ACCESS_HTTP[err.code as GrpcStatus];
    if (access && !info) throw this.refused(`${what}: gRPC ${GrpcStatus[err.code]}`, access);
    if (kind && !info) throw new TransportError(kind, `${what}: gRPC ${GrpcStatus[err.code]}: ${err.details}`);
    const data = error.data === undefined ? {} : { data: error.data };
    return {
      body: { ok: false, error: { code: error.code, message: error.message, ...data } },
      httpStatus: httpStatusFor(error.code),
    };
  }

  override callRaw(
    url: string,
    method: string,
    paramsJson: string | undefined,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<RpcReply> {
    const what = `gRPC ${this.describeUrl(url)} (${method})`;
    if (!UNARY.has(method)) throw new TransportError('protocol', `${what}: not a unary method of A2AService`);
    const request = parseParams(method, paramsJson);
    const startedAt = performance.now();
    return new Promise((resolve, reject) => {
      let headers: Metadata | undefined;
      const deadline = Date.now() + (options.timeoutMs ?? this.limits.requestTimeoutMs);
      const { path, serialize, deserialize } = codecOf(method, options.tally);
      const call = this.client(url).makeUnaryRequest(
        path,
        serialize,
        deserialize,
        request,
        metadataOf(this.activated(a2a), this.credentials),
        { deadline },
        (err: ServiceError | null, reply: unknown) => {
          options.signal?.removeEventListener('abort', abort);
          const completedAt = performance.now();
          const meta = (httpStatus: number): ExchangeMeta => ({
            httpStatus,
            echoedExtensions: echoed(headers),
            startedAt,
            completedAt,
            latencyMs: completedAt - startedAt,
          });
          if (!err) return resolve({ ok: true, result: reply, meta: meta(200) });
          try {
            const { body, httpStatus } = this.failure(err, what);
            resolve({ ...body, meta: meta(httpStatus) } as RpcReply);
          } catch (failure) {
            reject(failure);
          }
        },
      );
      call.on('metadata', (m: Metadata) => (headers = m));
      const abort = () => call.cancel();
      options.signal?.addEventListener('abort', abort, { once: true });
    });
  }

  override async stream(
    url: string,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options: ExchangeOptions = {},
  ): Promise<StreamReply> {
    const what = `gRPC ${this.describeUrl(url)} (${method})`;
    if (!STREAMING.has(method)) throw new TransportError('protocol', `${what}: not a streaming method of A2AService`);
    const id = this.nextId++;
    const startedAt = performance.now();
    const deadline = Date.now() + (options.timeoutMs ?? this.limits.streamTimeoutMs);
    const { path, serialize, deserialize } = codecOf(method, options.tally);
    const call = this.client(url).makeServerStreamRequest(
      path,
      serialize,
      deserialize,
      params,
      metadataOf(this.activated(a2a), this.credentials),
      {
        deadline,
      },
    );
    options.signal?.addEventListener('abort', () => call.cancel(), { once: true });
    const next = heard(call, what);
    const headers = await firstHeaders(call, this.limits.headersTimeoutMs);
    const completedAt = performance.now();
    const meta: ExchangeMeta = {
      httpStatus: 200,
      echoedExtensions: echoed(headers),
      startedAt,
      completedAt,
      latencyMs: completedAt - startedAt,
    };
    const events = frames(call, next, id, (err) => this.failure(err, what).body, this.limits.streamIdleTimeoutMs, what);
    return { kind: 'sse', meta, requestId: id, events, close: () => call.cancel() };
  }

  override async close(): Promise<void> {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
    await super.close();
  }
}

/** The call's initial metadata, or undefined once the end or `waitMs` comes first. */
function firstHeaders(call: ClientReadableStream<unknown>, waitMs: number): Promise<Metadata | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    call.once('metadata', (m: Metadata) => {
      clearTimeout(timer);
      resolve(m);
    });
    call.once('status', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

type Item = { message: unknown } | { error: ServiceError } | { end: true };

/** Messages a stream may hold unread before the rig cuts it (the SSE streams' bound is in bytes). */
const MAX_UNREAD = 10_000;

/**
 * The call's messages, its error or its end, heard from the moment it starts: grpc-js emits a
 * failed status as an 'error' event on the call, which must have a listener by then.
 */
function heard(call: ClientReadableStream<unknown>, what: string): () => Promise<Item> {
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  const push = (item: Item) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  call.on('data', (message: unknown) => {
    if (queue.length < MAX_UNREAD) return push({ message });
    call.cancel();
    push({ error: new TransportError('too-large', `${what}: more than ${MAX_UNREAD} messages unread`) as never });
  });
  call.on('error', (error: ServiceError) => push({ error }));
  call.on('end', () => push({ end: true }));
  return async () => {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
}

/** The stream's messages as JSON-RPC frames of request `id`; an error status as an error frame. */
async function* frames(
  call: ClientReadableStream<unknown>,
  next: () => Promise<Item>,
  id: number,
  errorOf: (err: ServiceError) => RpcBody,
  idleMs: number,
  what: string,
): AsyncGenerator<SseEvent> {
  const frame = (body: object): SseEvent => ({
    id: undefined,
    event: undefined,
    data: JSON.stringify({ jsonrpc: '2.0', id, ...body }),
  });
  let idle: NodeJS.Timeout | undefined;
  let silent = false;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      silent = true;
      call.cancel();
    }, idleMs);
  };
  try {
    for (;;) {
      arm();
      const item = await next();
      if ('end' in item) return;
      if ('message' in item) {
        yield frame({ result: item.message });
        continue;
      }
      if (item.error instanceof TransportError) throw item.error;
      if (silent) throw new TransportError('idle-timeout', `${what}: no message for ${idleMs} ms`);
      if (item.error.code === GrpcStatus.CANCELLED) return;
      const body = errorOf(item.error);
      if (!body.ok) yield frame({ error: body.error });
      return;
    }
  } finally {
    clearTimeout(idle);
    call.cancel();
  }
}
