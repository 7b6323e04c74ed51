// JSON parsing for bytes from untrusted peers: keys that could reach an object's prototype are
// refused, not silently kept. V8's JSON.parse is iterative, so depth alone cannot crash it.
import secureJson from 'secure-json-parse';

export class UnsafeJsonError extends Error {
  override name = 'UnsafeJsonError';
}

export function parseUntrustedJson(text: string): unknown {
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const message = (err as Error).message;
    if (/forbidden prototype property/.test(message)) {
      throw new UnsafeJsonError('JSON contains a "__proto__" or "constructor.prototype" key, which is refused');
    }
    throw new UnsafeJsonError(`body is not valid JSON: ${message}`);
  }
}
