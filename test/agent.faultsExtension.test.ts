// The fault flags of activating hitl-prompt/v1 (the header echo, the envelope, the card), proven to
// bite: each test makes one observation against an agent started with the flag (the guarantee is
// broken) and the same observation against a correct agent (the guarantee holds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../rig/agent/faults.ts';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { EXTENSION_FAULTS, gen, start, withFault, type ExtensionFaultName, type Proof } from './support/faultProofs.ts';
import { METHOD, envelopeOf, rpc, rpcStream, taskOf, userMessage } from './support/rpcClient.ts';

let correct: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  correct = await inProcessAgent();
});
afterAll(async () => correct?.cleanup());

const proofs = {
  'no-extension-echo': async () => {
    const observe = async (url: string) => {
      const blocking = await rpc(url, gen, METHOD[gen].send, { message: userMessage(gen) });
      const streaming = await rpcStream(url, gen, METHOD[gen].stream, { message: userMessage(gen) });
      const v03 = await rpc(url, '0.3', METHOD['0.3'].send, { message: userMessage('0.3') });
      return {
        // The extension itself stays active either way: only the echo is at stake.
        envelope: envelopeOf(taskOf(gen, blocking.body.result)) !== undefined,
        streamed: streaming.headers.get('content-type'),
        blocking: blocking.headers.get('a2a-extensions'),
        streaming: streaming.headers.get('a2a-extensions'),
        v03: v03.headers.get('x-a2a-extensions'),
      };
    };
    const [broken, holds] = await Promise.all([withFault('no-extension-echo', observe), observe(correct.url)]);
    expect(broken).toEqual({
      envelope: true,
      streamed: 'text/event-stream',
      blocking: null,
      streaming: null,
      v03: null,
    });
    expect(holds).toEqual({
      envelope: true,
      streamed: 'text/event-stream',
      blocking: HITL,
      streaming: HITL,
      v03: HITL,
    });
  },

  'envelope-extra-field': async () => {
    const [broken, holds] = await Promise.all([
      withFault('envelope-extra-field', (url) => start(url)),
      start(correct.url),
    ]);
    expect(Object.keys(broken.envelope).sort()).toEqual(['prompt', 'prompt_id', 'render_hint', 'response_schema']);
    expect(Object.keys(holds.envelope).sort()).toEqual(['prompt', 'prompt_id', 'response_schema']);
  },

  'envelope-without-activation': async () => {
    const observe = async (url: string) => {
      const sent = await rpc(url, gen, METHOD[gen].send, { message: userMessage(gen) }, false);
      return envelopeOf(taskOf(gen, sent.body.result)) !== undefined;
    };
    const [broken, holds] = await Promise.all([
      withFault('envelope-without-activation', observe),
      observe(correct.url),
    ]);
    expect(broken).toBe(true);
    expect(holds).toBe(false);
  },

  'declare-required-extension': async () => {
    const observe = async (url: string) => {
      const card = await (await fetch(`${url}/.well-known/agent-card.json`)).json();
      return card.capabilities.extensions.find((e: { uri: string }) => e.uri === HITL).required;
    };
    const [broken, holds] = await Promise.all([withFault('declare-required-extension', observe), observe(correct.url)]);
    expect(broken).toBe(true);
    expect(holds).toBe(false);
  },
} satisfies Record<ExtensionFaultName, Proof>;

describe('fault flags of the extension: each breaks its guarantee, which holds without it', () => {
  for (const fault of EXTENSION_FAULTS) {
    it(`${fault}: ${FAULTS[fault]}`, proofs[fault]);
  }
});
