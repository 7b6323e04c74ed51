// The one classification of attack outcomes (rig/attack/attackOutcome.ts): each rule, and the
// neighbours it must not be confused with.
import { describe, expect, it } from 'vitest';
import { errorCodeOf, outcomeOfClose, outcomeOfHold, outcomeOfReply } from '../rig/attack/attackOutcome.ts';
import { dechunk } from '../rig/attack/httpReplyFraming.ts';
import { closeFrameCode } from '../rig/attack/attacks/unreadReplay.ts';
import { sseFirstFrame } from '../rig/attack/attacks/unreadStreams.ts';

const reply = (status: number, body = '', headers: Record<string, string> = {}) =>
  outcomeOfReply({ status, headers, body }, 0, 5);

describe('attack outcome classification', () => {
  it('429 and 503 with Retry-After are rate-limited; without it 429 is refused and 503 a server error', () => {
    expect(reply(429, '', { 'retry-after': '1' })).toMatchObject({
      kind: 'rate-limited',
      status: 429,
      retryAfter: true,
      latencyMs: 5,
    });
    expect(reply(503, '', { 'retry-after': '2' }).kind).toBe('rate-limited');
    expect(reply(429).kind).toBe('refused');
    expect(reply(503).kind).toBe('server-error');
  });

  it('4xx is refused, 5xx a server error, with the body error code', () => {
    expect(reply(413, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"too big"}}')).toMatchObject({
      kind: 'refused',
      status: 413,
      code: -32600,
    });
    expect(
      reply(409, '{"error":{"code":409,"status":"ABORTED","message":"hitl_already_answered_or_unknown"}}'),
    ).toMatchObject({ kind: 'refused', code: 409 });
    expect(reply(431).kind).toBe('refused');
    expect(reply(500, '{"error":{"code":500}}')).toMatchObject({ kind: 'server-error', code: 500 });
  });

  it('HTTP 200 with a JSON-RPC error member is refused; a 200 result is accepted', () => {
    expect(
      reply(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"hitl_already_answered_or_unknown"}}'),
    ).toMatchObject({ kind: 'refused', code: -32010 });
    expect(reply(200, '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","error":{"code":1}}}}').kind).toBe(
      'accepted',
    );
    expect(reply(200, '{"jsonrpc":"2.0","id":1,"result":{}}').kind).toBe('accepted');
    expect(reply(101).kind).toBe('accepted');
  });

  it('finds the error code in a cut-off body and in an SSE frame', () => {
    expect(errorCodeOf('{"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"par')).toBe(-32700);
    expect(errorCodeOf('data: {"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"x"}}\n\n')).toBe(-32029);
    expect(errorCodeOf('{"error":"HitlResponseInvalidError","code":-32011,"message":"hitl_response_invalid"}')).toBe(
      -32011,
    );
    expect(errorCodeOf('{"error":"JSONParseError","code":-32700,"message":"body is not va')).toBe(-32700);
    expect(errorCodeOf('not json')).toBeUndefined();
  });

  it('a close is a cut and the hold bound is held, each with its latency', () => {
    expect(outcomeOfClose(10, 'closed the connection', 60)).toMatchObject({ kind: 'cut', latencyMs: 50 });
    expect(outcomeOfHold(0, 1000, 'idle connection', 1001)).toMatchObject({ kind: 'held', latencyMs: 1001 });
  });

  it('reads chunked bodies and a WebSocket close as the first frame (the first frame decides)', () => {
    expect(dechunk(Buffer.from('5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n')).toString()).toBe('hello world');
    const close = Buffer.from([0x88, 0x02, 0x03, 0xf5]);
    expect(closeFrameCode(close)).toBe(1013);
    expect(closeFrameCode(Buffer.from([0x88, 0x00]))).toBe(1005);
    expect(closeFrameCode(close.subarray(0, 3))).toBeUndefined();
    expect(closeFrameCode(Buffer.concat([Buffer.from([0x81, 0x01, 0x41]), close]))).toBeUndefined();
  });

  it("reads an event stream's first event: whole or not, refusal or served, comments skipped", () => {
    const error = 'data: {"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}';
    expect(sseFirstFrame(Buffer.from(`${error}\n`))).toBe('wait');
    expect(sseFirstFrame(Buffer.from(`: keep-alive\n\n${error}\r\n\r\n`))).toMatchObject({ code: -32001 });
    expect(sseFirstFrame(Buffer.from(': open\n\n'))).toBe('wait');
    expect(sseFirstFrame(Buffer.from('id: t:1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'))).toBe('served');
  });
});
