// The transport of a binding: every one answers the client's JSON-RPC-shaped calls (jsonRpcTransport.ts
// says what they are), so the client above it and the scenarios read one shape whatever the wire.
import type { Binding } from './cardInterfaces.ts';
import { JsonRpcTransport, type TransportOptions } from './jsonRpcTransport.ts';
import { GrpcTransport } from './grpcTransport.ts';
import { RestTransport } from './restTransport.ts';

export function transportFor(binding: Binding, options: TransportOptions): JsonRpcTransport {
  if (binding === 'HTTP+JSON') return new RestTransport(options);
  if (binding === 'GRPC') return new GrpcTransport(options);
  return new JsonRpcTransport(options);
}
