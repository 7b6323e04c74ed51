// The acceptance extension's errors render like the hitl ones: their HTTP status on HTTP+JSON, and
// `data` kept as the object `{extension, ...}` in every generation's error shape.
import { describe, expect, it } from 'vitest';
import { A2AError, httpStatusFor } from '../rig/protocol/errorCodes.ts';
import { ACCEPTANCE_ERROR_MESSAGES, ACCEPTANCE_HTTP_STATUS, ACCEPTANCE_URI } from '../rig/protocol/acceptance.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  409: 'ABORTED',
  422: 'INVALID_ARGUMENT',
};

describe('acceptance error codes', () => {
  for (const [codeText, httpStatus] of Object.entries(ACCEPTANCE_HTTP_STATUS)) {
    const code = Number(codeText);
    const message = ACCEPTANCE_ERROR_MESSAGES[code];
    it(`${code} ${message} maps to HTTP ${httpStatus} and keeps data as an object`, () => {
      expect(httpStatusFor(code)).toBe(httpStatus);
      const data = { extension: ACCEPTANCE_URI, reason: 'why' };
      const err = new A2AError(code, message, data);
      expect(err.toJson()).toEqual({ code, message, data });
      expect(err.toJsonV1()).toEqual({ code, message, data });
      // The REST binding passes the hitl URI; the ErrorInfo still names this extension.
      const rest = err.toRestJson(HITL_PROMPT_URI).error;
      expect(rest).toEqual({
        code: httpStatus,
        status: statusNames[httpStatus],
        message,
        data,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: message.toUpperCase(),
            domain: 'github.com',
            metadata: { extension: ACCEPTANCE_URI },
          },
        ],
      });
    });
  }
});
