// The A2A 1.0 gRPC binding (lf.a2a.v1.A2AService, rig/protocol/grpc/a2a.proto), served on its own
// port beside the HTTP server. Each method frames the shared operations (agentOperations.ts) as the
// HTTP+JSON binding does: requests and replies are the same canonical ProtoJSON objects (the
// service's serializers convert), streams use the same task streams (snapshot first, then every
// later event: the same replay), errors become gRPC statuses with ErrorInfo (grpcStatus.ts).
// A2A service parameters are metadata (A2A 1.0 §10.2): `a2a-extensions` activates, and the echo
// goes back in the response's initial metadata; `a2a-version` other than 1.0 is refused.
import {
  Metadata,
  Server,
  ServerCredentials,
  status as GrpcCode,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type { JsonObject, StreamResponse } from '../protocol/a2aTypes.ts';
import { A2AError, A2A_VERSION_NOT_SUPPORTED, toA2AError } from '../protocol/errorCodes.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { A2A_SERVICE, GRPC_EXTENSIONS_KEY, GRPC_VERSION_KEY } from '../protocol/grpc/a2aService.ts';
import { toGrpcError } from '../protocol/grpc/grpcStatus.ts';
import type { AgentOperations, CallContext } from './agentOperations.ts';
import { supportedOf } from './extensionActivation.ts';
import { logUnexpected } from './httpGuards.ts';
import { pushNotSupported } from './pushConfig.ts';
import { asksForVersion1 } from './restBinding.ts';
import { UserError } from '../protocol/userError.ts';
import type { EventSink } from './taskStream.ts';

export interface GrpcServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest request message accepted (the HTTP bindings' body bound). */
  maxMessageBytes: number;
  /** The no-extension-echo fault: activate, but echo nothing. */
  noEcho: boolean;
}

export interface RunningGrpcServer {
  port: number;
  close(): Promise<void>;
}

interface Call {
  metadata: Metadata;
  sendMetadata(metadata: Metadata): void;
}

function text(metadata: Metadata, key: string): string[] {
  return metadata.get(key).map((value) => (Buffer.isBuffer(value) ? value.toString('utf8') : value));
}

/** Only 1.0 has this binding: no version reads as 1.0, anything else is refused before anything runs. */
function requireVersion1(metadata: Metadata): void {
  const value = text(metadata, GRPC_VERSION_KEY)[0]?.trim();
  if (value === undefined || asksForVersion1(value)) return;
  throw new A2AError(A2A_VERSION_NOT_SUPPORTED, `A2A-Version ${value.slice(0, 40)} is not supported; use 1.0`);
}

class GrpcBinding {
  constructor(
    private readonly ops: AgentOperations,
    private readonly noEcho: boolean,
  ) {}

  /** Checks the version, reads activation, and sends the echo as the response's initial metadata. */
  private begin(call: Call): CallContext {
    const activated = supportedOf([text(call.metadata, GRPC_EXTENSIONS_KEY).join(',')]);
    const echo = new Metadata();
    if (!this.noEcho && activated.length > 0) echo.set(GRPC_EXTENSIONS_KEY, activated.join(', '));
    call.sendMetadata(echo);
    requireVersion1(call.metadata);
    return {
      generation: '1.0',
      hitl: activated.includes(HITL_PROMPT_URI),
      acceptance: activated.includes(ACCEPTANCE_URI),
      authorization: text(call.metadata, 'authorization')[0],
    };
  }

  private failure(err: unknown): ReturnType<typeof toGrpcError> {
    if (!(err instanceof A2AError)) logUnexpected('gRPC binding', err);
    return toGrpcError(toA2AError(err), HITL_PROMPT_URI);
  }

  unary(run: (request: JsonObject, ctx: CallContext) => JsonObject | Promise<JsonObject>) {
    return async (call: ServerUnaryCall<JsonObject, JsonObject>, callback: sendUnaryData<JsonObject>) => {
      try {
        const ctx = this.begin(call);
        callback(null, await run(call.request, ctx));
      } catch (err) {
        callback(this.failure(err));
      }
    };
  }

  streaming(run: (request: JsonObject, ctx: CallContext, sink: EventSink) => void) {
    return (call: ServerWritableStream<JsonObject, StreamResponse>) => {
      try {
        run(call.request, this.begin(call), grpcSink(call));
      } catch (err) {
        call.emit('error', this.failure(err));
      }
    };
  }
}

/**
 * A task stream as a gRPC server stream. The initial metadata went out in `begin`, so opening
 * writes nothing. `pending` counts the JSON size of events grpc-js has not handed to HTTP/2 yet
 * (an estimate of the protobuf bytes, which are fewer); a cut ends the call RESOURCE_EXHAUSTED.
 */
export function grpcSink(call: ServerWritableStream<JsonObject, StreamResponse>): EventSink {
  let pending = 0;
  return {
    open: () => {},
    openEmpty: () => {},
    event(event) {
      const size = Buffer.byteLength(JSON.stringify(event));
      pending += size;
      call.write(event, () => (pending -= size));
    },
    heartbeat: () => {},
    pending: () => pending,
    close(cut) {
      if (!cut) return void call.end();
      call.emit('error', {
        code: GrpcCode.RESOURCE_EXHAUSTED,
        details: 'the reader fell too far behind the task stream',
      });
    },
    onClose(listener) {
      call.on('cancelled', listener);
      call.on('close', listener);
    },
  };
}

function implementation(ops: AgentOperations, noEcho: boolean): UntypedServiceImplementation {
  const b = new GrpcBinding(ops, noEcho);
  const push = b.unary(() => {
    throw pushNotSupported();
  });
  return {
    SendMessage: b.unary((request, ctx) => ops.send(request, ctx)),
    SendStreamingMessage: b.streaming((request, ctx, sink) => ops.stream(request, ctx, sink)),
    GetTask: b.unary((request, ctx) => ops.get(request, ctx)),
    ListTasks: b.unary((request, ctx) => ops.list(request, ctx)),
    CancelTask: b.unary((request, ctx) => ops.cancel({ id: request.id }, ctx)),
    SubscribeToTask: b.streaming((request, _ctx, sink) => ops.subscribe({ id: request.id }, sink)),
    CreateTaskPushNotificationConfig: push,
    GetTaskPushNotificationConfig: push,
    ListTaskPushNotificationConfigs: push,
    DeleteTaskPushNotificationConfig: push,
  };
}

export async function startGrpcServer(ops: AgentOperations, options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': options.maxMessageBytes,
  });
  server.addService(A2A_SERVICE, implementation(ops, options.noEcho));
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (err, bound) =>
      err
        ? reject(
            new UserError(
              `cannot listen for gRPC on ${host}:${options.port} (${err.message}); pick another --grpc-port`,
            ),
          )
        : resolve(bound),
    ),
  );
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
