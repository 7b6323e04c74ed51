// Which request Content-Types the bindings read as JSON. A body labelled as something else (the
// TCK posts text/plain) is refused with ContentTypeNotSupportedError (-32005; HTTP 415 on
// HTTP+JSON) instead of being parsed anyway: the label is the client's statement of what it sent.
// A request with no Content-Type is still read (some minimal clients leave it out, and JSON is
// the only thing either binding accepts).
import { A2AError, A2A_CONTENT_TYPE_NOT_SUPPORTED } from '../protocol/errorCodes.ts';

/** application/json, application/a2a+json or any other `+json` type; parameters (charset) ignored. */
export function isJsonContentType(header: string | string[] | undefined): boolean {
  if (header === undefined) return true;
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  const media = value.split(';')[0]!.trim().toLowerCase();
  if (media === '') return true;
  return media === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(media);
}

/** Refuses a body labelled as something other than JSON (ContentTypeNotSupportedError, -32005). */
export function requireJsonContentType(header: string | string[] | undefined): void {
  if (isJsonContentType(header)) return;
  throw new A2AError(
    A2A_CONTENT_TYPE_NOT_SUPPORTED,
    `Content-Type ${String(header).slice(0, 80)} is not supported; send application/json`,
  );
}
