// A minimal A2A gRPC client for tests: grpc-js with the rig's own a2a.proto and its ProtoJSON
// serializers, so requests and replies are the canonical shapes. It returns what a test judges:
// the reply or the error (as an A2AError with its ErrorInfo), the initial metadata (the extension
// echo) and, for streams, every event until the server ends the call.
import { Metadata, credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { A2A_SERVICE } from '../../rig/protocol/grpc/a2aService.ts';
import { fromGrpcError } from '../../rig/protocol/grpc/grpcStatus.ts';

const A2AClient = makeGenericClientConstructor(A2A_SERVICE, 'A2AService');

export interface GrpcOutcome {
  reply?: any;
  events: any[];
  error?: ReturnType<typeof fromGrpcError> & { status: number };
  /** Initial metadata (response headers), e.g. `a2a-extensions`. */
  headers: Metadata;
}

export interface GrpcTestClient {
  call(method: string, request: object, meta?: Record<string, string>): Promise<GrpcOutcome>;
  /** Reads a server stream to its end, or until `until(event)` says stop (then cancels the call). */
  stream(
    method: string,
    request: object,
    meta?: Record<string, string>,
    until?: (event: any) => boolean,
  ): Promise<GrpcOutcome>;
  close(): void;
}

function metadataOf(meta: Record<string, string> = {}): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries({ 'a2a-version': '1.0', ...meta })) metadata.set(key, value);
  return metadata;
}

function errorOf(err: ServiceError): GrpcOutcome['error'] {
  return { ...fromGrpcError(err), status: err.code };
}

/** `target` is `host:port`, as the card's GRPC interface names it. */
export function grpcTestClient(target: string): GrpcTestClient {
  const client = new A2AClient(target, credentials.createInsecure()) as Client & Record<string, any>;
  const deadline = () => Date.now() + 20_000;
  return {
    call: (method, request, meta) =>
      new Promise((resolve) => {
        let headers = new Metadata();
        const call = client[method](request, metadataOf(meta), { deadline: deadline() }, (err: any, reply: any) =>
          resolve(err ? { events: [], error: errorOf(err), headers } : { reply, events: [], headers }),
        );
        call.on('metadata', (m: Metadata) => (headers = m));
      }),
    stream: (method, request, meta, until) =>
      new Promise((resolve) => {
        const events: any[] = [];
        let headers = new Metadata();
        let cancelled = false;
        const call = client[method](request, metadataOf(meta), { deadline: deadline() });
        call.on('metadata', (m: Metadata) => (headers = m));
        call.on('data', (event: any) => {
          events.push(event);
          if (until?.(event)) {
            cancelled = true;
            call.cancel();
            resolve({ events, headers });
          }
        });
        call.on('error', (err: ServiceError) =>
          resolve({ events, headers, ...(cancelled ? {} : { error: errorOf(err) }) }),
        );
        call.on('end', () => resolve({ events, headers }));
      }),
    close: () => client.close(),
  };
}
