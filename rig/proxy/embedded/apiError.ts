// Errors the HTTP API answers with a status: the same messages and codes as Toxiproxy's api.go, so
// `{"error": ..., "status": ...}` bodies read the same from either server.
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  /** Go's joinError: "<wrapper message>: <detail>". */
  withDetail(detail: string): ApiError {
    return new ApiError(`${this.message}: ${detail}`, this.status);
  }

  toJSON(): { error: string; status: number } {
    return { error: this.message, status: this.status };
  }
}

export const ErrBadRequestBody = new ApiError('bad request body', 400);
export const ErrMissingField = new ApiError('missing required field', 400);
export const ErrProxyNotFound = new ApiError('proxy not found', 404);
export const ErrProxyAlreadyExists = new ApiError('proxy already exists', 409);
export const ErrInvalidStream = new ApiError('stream was invalid, can be either upstream or downstream', 400);
export const ErrInvalidToxicType = new ApiError('invalid toxic type', 400);
export const ErrToxicAlreadyExists = new ApiError('toxic already exists', 409);
export const ErrToxicNotFound = new ApiError('toxic not found', 404);

/** Any other failure (a listen error, say) is a 500 carrying the error's text, as in Go. */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(err instanceof Error ? err.message : String(err), 500);
}
