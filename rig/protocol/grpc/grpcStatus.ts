// A2A errors on the gRPC binding (A2A 1.0 §10.6): the status code is the error's google.rpc.Code
// (the spec's §5.4 column for A2A errors, statusNameFor for the rest), the status message its
// message, and the `grpc-status-details-bin` trailer a google.rpc.Status whose details hold the
// ErrorInfo (reason, domain a2a-protocol.org) for an A2A error. Mirroring the HTTP+JSON binding, a
// hitl-prompt/v1 (or acceptance) error gets an ErrorInfo of the extension's own and keeps the
// contract's object `{extension, prompt_id, validation_errors}`: it travels as a second detail, a
// google.protobuf.Struct, which generic readers skip and the rig reads back as `error.data`.
import { Metadata, status as GrpcCode, type ServiceError } from '@grpc/grpc-js';
import {
  A2AError,
  ERROR_INFO_TYPE,
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_METHOD_NOT_FOUND,
  codeForReason,
  errorInfoFor,
  statusNameFor,
  type ErrorInfo,
} from '../errorCodes.ts';
import { decodeMessage, encodeMessage } from './protoJson.ts';

export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
const STRUCT_TYPE = 'type.googleapis.com/google.protobuf.Struct';
const TYPE_PREFIX = 'type.googleapis.com/';

/** google.protobuf.Any in protobufjs object form (its built-in definition keeps the proto name `type_url`). */
interface AnyDetail {
  type_url: string;
  value: string;
}

/** The gRPC status code of an A2A (or JSON-RPC, or extension) error code. */
export function grpcCodeFor(code: number): GrpcCode {
  return GrpcCode[statusNameFor(code) as keyof typeof GrpcCode] ?? GrpcCode.UNKNOWN;
}

function packed(typeName: string, json: unknown): AnyDetail {
  return { type_url: `${TYPE_PREFIX}${typeName}`, value: encodeMessage(typeName, json).toString('base64') };
}

/** What a gRPC handler passes to its callback (or emits on its stream) for this error. */
export function toGrpcError(error: A2AError, extensionUri: string): Partial<ServiceError> {
  const info = errorInfoFor(error, extensionUri);
  const details: AnyDetail[] = [];
  if (info)
    details.push(packed('google.rpc.ErrorInfo', { reason: info.reason, domain: info.domain, metadata: info.metadata }));
  const data = error.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data))
    details.push(packed('google.protobuf.Struct', data));
  const code = grpcCodeFor(error.code);
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, encodeMessage('google.rpc.Status', { code, message: error.message, details }));
  return { code, details: error.message, metadata };
}

/** The JSON-RPC code a status without a recognised ErrorInfo reads as. */
function fallbackCode(code: GrpcCode): number {
  if (code === GrpcCode.INVALID_ARGUMENT) return JSONRPC_INVALID_PARAMS;
  if (code === GrpcCode.UNIMPLEMENTED) return JSONRPC_METHOD_NOT_FOUND;
  return JSONRPC_INTERNAL_ERROR;
}

/** The A2AError a gRPC error carries (the reverse of toGrpcError), with the ErrorInfo it found. */
export function fromGrpcError(err: Pick<ServiceError, 'code' | 'details' | 'metadata'>): {
  error: A2AError;
  info?: ErrorInfo;
} {
  const raw = err.metadata?.get(STATUS_DETAILS_KEY)[0];
  const status = Buffer.isBuffer(raw) ? decodeMessage<{ details?: AnyDetail[] }>('google.rpc.Status', raw) : {};
  let info: ErrorInfo | undefined;
  let data: unknown;
  for (const detail of status.details ?? []) {
    const bytes = Buffer.from(detail.value ?? '', 'base64');
    if (detail.type_url === ERROR_INFO_TYPE && !info) {
      info = { '@type': ERROR_INFO_TYPE, ...decodeMessage<Omit<ErrorInfo, '@type'>>('google.rpc.ErrorInfo', bytes) };
    } else if (detail.type_url === STRUCT_TYPE && data === undefined) {
      data = decodeMessage('google.protobuf.Struct', bytes);
    }
  }
  const code = (info && codeForReason(info.reason)) ?? fallbackCode(err.code);
  return { error: new A2AError(code, err.details ?? '', data), info };
}
