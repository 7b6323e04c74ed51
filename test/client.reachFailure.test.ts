// Whose failure a transport error is (issue 24, item 4): one met before a connection existed (refused,
// a TLS handshake or certificate) is the rig's reach; a reset once the agent had the connection is
// the agent's doing and stays a socket failure.
import { describe, expect, it } from 'vitest';
import { isReachFailure, toTransportError } from '../rig/client/transportError.ts';
import { attackTargetOf } from '../rig/engine/dos/loopbackTarget.ts';

const ctx = {
  what: 'POST https://127.0.0.1:1/ (SendMessage)',
  headersTimeoutMs: 1,
  idleTimeoutMs: 1,
  overallMs: 1,
  cutBy: undefined,
  callerAborted: false,
};
const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('reach failures', () => {
  it('a TLS handshake against plain http is the rig not reaching the agent, and says so', () => {
    const err = toTransportError(
      nodeError('EPROTO', 'write EPROTO 80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'),
      ctx,
    );
    expect([err.failure, isReachFailure(err), err.message]).toEqual([
      'connect',
      true,
      `${ctx.what}: cannot connect: TLS handshake failed (EPROTO) — ` +
        'the URL names https:, the server there speaks plain http',
    ]);
  });

  it("undici's word for the same handshake (the SSE client) is read alike", () => {
    const err = toTransportError(
      nodeError('ERR_SSL_WRONG_VERSION_NUMBER', '80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'),
      ctx,
    );
    expect([err.failure, err.message]).toEqual([
      'connect',
      `${ctx.what}: cannot connect: TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER) — ` +
        'the URL names https:, the server there speaks plain http',
    ]);
  });

  it('a certificate the rig does not trust is its reach too; a reset by the agent is not', () => {
    const cert = toTransportError(nodeError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), ctx);
    expect([cert.failure, cert.message]).toEqual([
      'connect',
      `${ctx.what}: cannot connect: the TLS certificate was not accepted ` +
        '(DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate)',
    ]);
    const reset = toTransportError(nodeError('ECONNRESET', 'read ECONNRESET'), ctx);
    expect([reset.failure, isReachFailure(reset)]).toEqual(['socket', false]);
  });

  it('attacks are not aimed at an https: agent: the rig says it is its own limit', () => {
    const target = attackTargetOf({
      directUrl: 'https://127.0.0.1:4000',
      directRpcUrl: 'https://127.0.0.1:4000/',
      generation: '1.0',
      binding: 'JSONRPC',
      hitlDeclared: true,
      sourceAddress: '127.0.0.2',
    });
    expect(target).toEqual({
      refused:
        "the agent is at https://127.0.0.1:4000/: the rig's attacks speak plain http: only, " +
        "so none can be aimed there (the rig's limit, not the agent's)",
    });
  });
});
