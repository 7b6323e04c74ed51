// The transport of a binding: every one answers the client's JSON-RPC-shaped calls (jsonRpcTransport.ts
// says what they are), so the client above it and the scenarios read one shape whatever the wire.
import type { Binding } from './cardInterfaces.ts';
import { JsonRpcTransport, type TransportOptions } from './jsonRpcTransport.ts';
import { RestTransport } from './restTransport.ts';
import type { A2AHeaders } from './a2aHeaders.ts';
import type { ExchangeOptions, RpcReply, StreamReply } from './transportTypes.ts';

export function transportFor(binding: Binding, options: TransportOptions): JsonRpcTransport {
  if (binding === 'HTTP+JSON') return new RestTransport(options);
  if (binding === 'GRPC') return new LazyGrpcTransport(options);
  return new JsonRpcTransport(options);
}

/**
 * The gRPC transport (grpcTransport.ts), loaded at its first call: @grpc/grpc-js, protobufjs and the
 * A2A service definition are most of what loading the rig costs, and only a run on the gRPC binding
 * needs them. The card is still fetched over HTTP by this object (getJson is not the binding's).
 */
class LazyGrpcTransport extends JsonRpcTransport {
  private real: Promise<JsonRpcTransport> | undefined;

  constructor(private readonly options: TransportOptions) {
    super(options);
  }

  private grpc(): Promise<JsonRpcTransport> {
    this.real ??= import('./grpcTransport.ts').then(({ GrpcTransport }) => new GrpcTransport(this.options));
    return this.real;
  }

  override async callRaw(
    url: string,
    method: string,
    paramsJson: string | undefined,
    a2a: A2AHeaders,
    options?: ExchangeOptions,
  ): Promise<RpcReply> {
    return (await this.grpc()).callRaw(url, method, paramsJson, a2a, options);
  }

  override async stream(
    url: string,
    method: string,
    params: unknown,
    a2a: A2AHeaders,
    options?: ExchangeOptions,
  ): Promise<StreamReply> {
    return (await this.grpc()).stream(url, method, params, a2a, options);
  }

  override async close(): Promise<void> {
    if (this.real) await (await this.real).close();
    await super.close();
  }
}
