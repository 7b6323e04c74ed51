// The A2AService definition for @grpc/grpc-js, loaded from a2a.proto with @grpc/proto-loader, whose
// serializers speak the rig's canonical ProtoJSON (protoJson.ts): a server's handlers get and return
// the same objects as the HTTP+JSON binding, and a client made with makeGenericClientConstructor
// sends and reads them too.
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { A2A_PACKAGE, A2A_PROTO, OBJECT_OPTIONS, fromProtoObject, protoService, toProtoObject } from './protoJson.ts';

export const A2A_SERVICE_NAME = `${A2A_PACKAGE}.A2AService`;

/** A2A service parameters as gRPC metadata keys (A2A 1.0 §10.2: the header names, lower case). */
export const GRPC_VERSION_KEY = 'a2a-version';
export const GRPC_EXTENSIONS_KEY = 'a2a-extensions';

/** The full name (no leading dot) of a method's request or response type, from protobufjs's reflection. */
function typeNames(method: string): { request: string; response: string } {
  const reflected = protoService('A2AService').methods[method];
  reflected.resolve();
  return {
    request: reflected.resolvedRequestType!.fullName.slice(1),
    response: reflected.resolvedResponseType!.fullName.slice(1),
  };
}

function loadService(): ServiceDefinition {
  const pkg = loadSync(A2A_PROTO, { ...OBJECT_OPTIONS, keepCase: false });
  const loaded = pkg[A2A_SERVICE_NAME] as unknown as Record<string, MethodDefinition<object, object>>;
  const service: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(loaded)) {
    const { request, response } = typeNames(name);
    service[name] = {
      ...method,
      requestSerialize: (json: unknown) => method.requestSerialize(toProtoObject(request, json)),
      requestDeserialize: (bytes: Buffer) => fromProtoObject(request, method.requestDeserialize(bytes)),
      responseSerialize: (json: unknown) => method.responseSerialize(toProtoObject(response, json)),
      responseDeserialize: (bytes: Buffer) => fromProtoObject(response, method.responseDeserialize(bytes)),
    };
  }
  return service;
}

export const A2A_SERVICE: ServiceDefinition = loadService();
