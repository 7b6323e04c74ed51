// The Python peers' acceptance-criteria extension (test/peers/python/acceptance_*.py), checked
// directly on the wire for both SDK generations before the rig is trusted to judge them with it:
// the card, activation and echo, criteria refused (-32040, no task), artifacts before the pending
// flag, accept / reject-with-retry / maxRejections / retry:false / timeout, the agent evaluator,
// malformed (-32044), unauthorized (-32043) and late (-32042) decisions, exactly one winner in a
// flood, and hitl-prompt/v1 on the same task. Durability and fault flags:
// pythonPeers.acceptanceFaults.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonPeerMissing, startPythonPeer, type PythonPeer } from './support/pythonPeers.ts';
import {
  ACC,
  acceptanceCalls,
  DECISION,
  HITL,
  PENDING,
  rpc,
  sha,
  streamEvents,
} from './support/pythonAcceptanceWire.ts';

for (const sdk of ['1.3.0', '0.3.26'] as const) {
  const missing = pythonPeerMissing(sdk);
  describe.skipIf(missing !== undefined)(`the a2a-sdk ${sdk} peer: acceptance-criteria`, () => {
    const { w, activate, create, created, decide, getTask, isPending, waitState, ATTEMPTS } = acceptanceCalls(sdk);
    let peer: PythonPeer;
    beforeAll(async () => {
      peer = await startPythonPeer({ sdk });
    }, 40_000);
    afterAll(async () => {
      await peer?.close();
    });

    it('declares the extension: required false, evaluators, supportsArtifactSchema, maxRejectionsCap', async () => {
      const card = (await (await fetch(new URL('/.well-known/agent-card.json', peer.url))).json()) as any;
      const ext = card.capabilities.extensions.find((e: any) => e.uri === ACC);
      expect(ext.required ?? false).toBe(false);
      expect(ext.params).toEqual({
        evaluators: ['client', 'agent', 'human'],
        supportsArtifactSchema: true,
        maxRejectionsCap: 10,
      });
    });

    it('without activation: criteria ignored, no echo, no pending flag, no artifacts', async () => {
      const r = await create(peer, { maxRejections: 2 }, { headers: {} });
      expect(r.headers.get('a2a-extensions')).toBeNull();
      const t = w.task(r.body.result);
      expect(t.status.message?.metadata?.[PENDING]).toBeUndefined();
      expect(t.artifacts ?? []).toEqual([]);
      // and a decision to it without activation is a plain message: the plain exchange completes it
      expect((await decide(peer, t, { action: 'bogus' }, { headers: {} })).body.error).toBeUndefined();
    });

    it(
      'artifacts first, then pending (flag + URI in extensions), ' +
        'echoed; accept → COMPLETED; a second accept → -32042',
      async () => {
        const r = await create(peer, { description: 'a report' });
        expect(r.headers.get('a2a-extensions')).toContain(ACC);
        const t = w.task(r.body.result);
        expect(isPending(t)).toBe(true);
        expect(t.status.message.extensions).toContain(ACC);
        expect(t.artifacts.map((a: any) => a.name)).toEqual(['result']);
        const events = await streamEvents(peer.url, w, { message: w.message([w.text('go')]) }, activate);
        const firstArtifact = events.findIndex(([k]) => k === 'artifact');
        const pendingAt = events.findIndex(
          ([k, e]) => k === 'status' && e.status.message?.metadata?.[PENDING] === true,
        );
        expect(firstArtifact).toBeGreaterThanOrEqual(0);
        expect(pendingAt).toBeGreaterThan(firstArtifact);

        const ok = await decide(peer, t, { action: 'accept' });
        expect(w.task(ok.body.result).status.state).toBe(w.state.completed);
        const again = await decide(peer, t, { action: 'accept' });
        expect(again.body.error).toMatchObject({
          code: -32042,
          message: 'acceptance_decision_conflict',
          data: { extension: ACC },
        });
      },
    );

    it(
      'reject with retry: feedback verbatim in history, ' + 'same task and context, a new attempt, pending again',
      async () => {
        const t = await created(peer, undefined, { script: ATTEMPTS });
        expect(t.artifacts.map((a: any) => w.partData(a.parts[0]))).toEqual([{ score: 1 }]);
        const feedback = `score too low ${randomUUID()}`;
        const r = await decide(peer, t, { action: 'reject', reason: 'QUALITY_THRESHOLD_NOT_MET' }, { text: feedback });
        const again = w.task(r.body.result);
        expect([again.id, again.contextId]).toEqual([t.id, t.contextId]);
        expect(isPending(again)).toBe(true);
        expect(again.history.some((m: any) => m.parts.some((p: any) => p.text === feedback))).toBe(true);
        expect(again.artifacts.map((a: any) => w.partData(a.parts[0]))).toEqual([{ score: 1 }, { score: 9 }]);
        // a message that is not a decision leaves it pending
        const plain = await rpc(
          peer.url,
          w.send,
          { message: w.message([w.text('status?')], { taskId: t.id, contextId: t.contextId }) },
          activate,
        );
        expect(isPending(w.task(plain.body.result))).toBe(true);
        // a decision on a request that does not activate the extension is a plain message too
        const unactivated = await decide(peer, t, { action: 'accept' }, { headers: {} });
        expect(isPending(w.task(unactivated.body.result))).toBe(true);
        expect(w.task((await decide(peer, t, { action: 'accept' })).body.result).status.state).toBe(w.state.completed);
      },
    );

    it('past maxRejections → FAILED; retry:false → FAILED at once', async () => {
      const t = await created(peer, { maxRejections: 1 });
      expect(isPending(w.task((await decide(peer, t, { action: 'reject', reason: 'OTHER' })).body.result))).toBe(true);
      expect(w.task((await decide(peer, t, { action: 'reject', reason: 'OTHER' })).body.result).status.state).toBe(
        w.state.failed,
      );
      const u = await created(peer, { evaluator: 'human' }); // gated like client
      expect(isPending(u)).toBe(true);
      expect(
        w.task((await decide(peer, u, { action: 'reject', reason: 'OUT_OF_SCOPE', retry: false })).body.result).status
          .state,
      ).toBe(w.state.failed);
    });

    it('pending past acceptanceTimeoutSeconds → FAILED', async () => {
      const t = await created(peer, { acceptanceTimeoutSeconds: 1 });
      expect(isPending(await getTask(peer, t.id))).toBe(true);
      expect((await waitState(peer, t.id, w.state.failed, 5_000)).status.state).toBe(w.state.failed);
      expect((await decide(peer, t, { action: 'accept' })).body.error.code).toBe(-32042);
    });

    it(
      'evaluator agent: its own check of artifactSchema and requiredArtifacts, ' + 'COMPLETED or FAILED with -32041',
      async () => {
        const schema = { type: 'object', required: ['score'], properties: { score: { type: 'integer', minimum: 5 } } };
        const good = await created(
          peer,
          { evaluator: 'agent', artifactSchema: schema, requiredArtifacts: ['report'] },
          { script: { attempts: [ATTEMPTS.attempts[1]] } },
        );
        expect(good.status.state).toBe(w.state.completed);
        const bad = await created(
          peer,
          { evaluator: 'agent', artifactSchema: schema, requiredArtifacts: ['report', 'summary'] },
          { script: ATTEMPTS },
        );
        expect(bad.status.state).toBe(w.state.failed);
        const err = bad.status.message.metadata[`${ACC}/error`];
        expect(err).toMatchObject({ code: -32041, message: 'acceptance_criteria_not_met' });
        expect(err.details.join('\n')).toMatch(/summary[\s\S]*score|score[\s\S]*summary/);
      },
    );

    it('invalid or hostile criteria → -32040 with {extension, reason}, and no task', async () => {
      let deep: any = { type: 'object' };
      for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
      let deeper: any = 1;
      for (let i = 0; i < 3000; i++) deeper = [deeper];
      const cases: [unknown, RegExp][] = [
        ['not an object', /object/],
        [{ surprise: 1 }, /unknown criteria field/],
        [{ evaluator: 'oracle' }, /evaluator/],
        [{ maxRejections: -1 }, /maxRejections/],
        [{ maxRejections: 11 }, /maxRejections/],
        [{ maxRejections: 1.5 }, /maxRejections/],
        [{ acceptanceTimeoutSeconds: 0 }, /acceptanceTimeoutSeconds/],
        [{ requiredArtifacts: ['ok', ''] }, /requiredArtifacts/],
        [{ artifactSchema: { type: 'object', description: 'x'.repeat(70_000) } }, /larger than 65536/],
        [{ artifactSchema: deep }, /deeper than 32/],
        [{ artifactSchema: { deep: deeper } }, /nests too deeply/],
        [{ artifactSchema: { $ref: 'https://example.com/evil.json' } }, /remote/],
        [{ artifactSchema: { type: 'string', pattern: '^(a+)+$' } }, /nests quantifiers/],
        [{ artifactSchema: { type: 'string', pattern: '(a)\\1' } }, /backreference/],
        [{ artifactSchema: { type: 'flubber' } }, /not a valid Draft 2020-12/],
        [{ artifactSchema: { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' } }, /recurses/],
      ];
      const before = sdk === '1.3.0' ? (await rpc(peer.url, 'ListTasks', {})).body.result.tasks.length : 0;
      for (const [criteria, reason] of cases) {
        const r = await create(peer, criteria);
        expect(r.body.result, JSON.stringify(criteria).slice(0, 100)).toBeUndefined();
        expect(r.body.error.code).toBe(-32040);
        expect(r.body.error.data.extension).toBe(ACC);
        expect(r.body.error.data.reason).toMatch(reason);
      }
      const deciders = await create(peer, {}, { meta: { 'a2a-rig/deciders': ['not-a-digest'] } });
      expect(deciders.body.error.code).toBe(-32040);
      if (sdk === '1.3.0') expect((await rpc(peer.url, 'ListTasks', {})).body.result.tasks.length).toBe(before);
    });

    it('malformed decisions → -32044 and the task stays pending', async () => {
      const t = await created(peer, {});
      for (const d of [
        { action: 'maybe' },
        { action: 'reject' },
        { action: 'reject', reason: 'BORED' },
        { action: 'reject', reason: 'OTHER', retry: 'no' },
        { action: 'accept', extra: 1 },
        'accept',
      ]) {
        const r = await decide(peer, t, d);
        expect(r.body.error, JSON.stringify(d)).toMatchObject({ code: -32044, data: { extension: ACC } });
      }
      const wrongContext = await rpc(
        peer.url,
        w.send,
        {
          message: w.message([w.text('accept')], {
            taskId: t.id,
            contextId: randomUUID(),
            metadata: { [DECISION]: { action: 'accept' } },
          }),
        },
        activate,
      );
      expect(wrongContext.body.error).toMatchObject({ code: -32044, data: { reason: "contextId is not the task's" } });
      expect(isPending(await getTask(peer, t.id))).toBe(true);
    });

    it('only the creator or a named decider may decide (-32043 otherwise)', async () => {
      const creator = { ...activate, authorization: 'Bearer creator-token' };
      const t = await created(peer, {}, { headers: creator, meta: { 'a2a-rig/deciders': [sha('reviewer-token')] } });
      for (const headers of [activate, { ...activate, authorization: 'Bearer intruder' }]) {
        const r = await decide(peer, t, { action: 'accept' }, { headers });
        expect(r.body.error).toMatchObject({
          code: -32043,
          message: 'acceptance_decision_unauthorized',
          data: { extension: ACC },
        });
      }
      expect(isPending(await getTask(peer, t.id))).toBe(true);
      const r = await decide(peer, t, { action: 'reject', reason: 'OTHER' }, { headers: creator });
      expect(isPending(w.task(r.body.result))).toBe(true);
      const ok = await decide(
        peer,
        t,
        { action: 'accept' },
        { headers: { ...activate, authorization: 'Bearer reviewer-token' } },
      );
      expect(w.task(ok.body.result).status.state).toBe(w.state.completed);
    });

    it('a flood of 100 concurrent accepts and rejects: exactly one wins, the rest get -32042', async () => {
      const t = await created(peer, { maxRejections: 0 });
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          decide(peer, t, i % 2 ? { action: 'accept' } : { action: 'reject', reason: 'OTHER' }),
        ),
      );
      const won = replies.filter((r) => r.body.result);
      expect(won).toHaveLength(1);
      expect(replies.filter((r) => r.body.error?.code === -32042)).toHaveLength(99);
      const final = await getTask(peer, t.id);
      expect(final.status.state).toBe(w.task(won[0].body.result).status.state);
    }, 30_000);

    it(
      'hitl-prompt/v1 and acceptance on one task: ' + 'the prompt first, its answer leads to the pending gate',
      async () => {
        const t = await created(peer, {}, { headers: { [w.header]: `${HITL}, ${ACC}` } });
        const envelope = t.status.message.metadata[HITL];
        expect(envelope.prompt_id).toBeTruthy();
        const r = await rpc(
          peer.url,
          w.send,
          {
            message: w.message([w.text('yes')], {
              taskId: t.id,
              contextId: t.contextId,
              metadata: { hitl_response_for: { prompt_id: envelope.prompt_id, payload: { approved: true } } },
            }),
          },
          { [w.header]: `${HITL}, ${ACC}` },
        );
        expect(r.headers.get('a2a-extensions')).toBe(`${HITL}, ${ACC}`);
        expect(isPending(w.task(r.body.result))).toBe(true);
      },
    );
  });
}
