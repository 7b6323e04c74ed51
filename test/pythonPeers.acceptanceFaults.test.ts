// The Python peers' acceptance-criteria extension (test/peers/python/acceptance_*.py) across a
// kill -9 (the pending gate, the rejection count and the deadline survive; a decision committed
// before the crash is carried out), and each acceptance fault flag breaking its own guarantee,
// checked directly on the wire before the rig is trusted to judge the peers.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonPeerMissing, startPythonPeer, type PythonPeer } from './support/pythonPeers.ts';
import { acceptanceCalls, PENDING, streamEvents } from './support/pythonAcceptanceWire.ts';

for (const sdk of ['1.3.0', '0.3.26'] as const) {
  const missing = pythonPeerMissing(sdk);
  describe.skipIf(missing !== undefined)(`the a2a-sdk ${sdk} peer: acceptance durability and fault flags`, () => {
    const { w, activate, create, created, decide, getTask, isPending, restart, waitState } = acceptanceCalls(sdk);
    let peer: PythonPeer;
    beforeAll(async () => {
      peer = await startPythonPeer({ sdk });
    }, 40_000);
    afterAll(async () => {
      await peer?.close();
    });

    it('kill -9 and restart: the pending gate, the rejection count and the deadline survive', async () => {
      const open = await created(peer, {});
      const counted = await created(peer, { maxRejections: 1 });
      await decide(peer, counted, { action: 'reject', reason: 'OTHER' });
      const timed = await created(peer, { acceptanceTimeoutSeconds: 2 });
      await restart(peer);
      expect(isPending(await getTask(peer, open.id))).toBe(true);
      expect(
        w.task((await decide(peer, counted, { action: 'reject', reason: 'OTHER' })).body.result).status.state,
      ).toBe(w.state.failed);
      expect((await waitState(peer, timed.id, w.state.failed, 6_000)).status.state).toBe(w.state.failed);
      expect(w.task((await decide(peer, open, { action: 'accept' })).body.result).status.state).toBe(w.state.completed);
    }, 30_000);

    it(
      "a kill -9 between a decision's commit and the task write: " + 'the restarted peer carries the decision out',
      async () => {
        const p = await startPythonPeer({ sdk, faults: ['crash-after-decision'] });
        try {
          const accepted = await created(p, {});
          const retried = await created(p, { maxRejections: 3 });
          await expect(decide(p, accepted, { action: 'accept' })).rejects.toThrow(); // the process died mid-request
          await restart(p);
          expect((await getTask(p, accepted.id)).status.state).toBe(w.state.completed);
          await expect(decide(p, retried, { action: 'reject', reason: 'OTHER' })).rejects.toThrow();
          await restart(p);
          // the rejection is counted and the task is pending again, so a decision is possible again
          const again = await getTask(p, retried.id);
          expect(isPending(again)).toBe(true);
          await expect(decide(p, retried, { action: 'reject', reason: 'OTHER', retry: false })).rejects.toThrow();
          await restart(p);
          expect((await getTask(p, retried.id)).status.state).toBe(w.state.failed);
        } finally {
          await p.close();
        }
      },
      60_000,
    );

    // One peer per flag, so each test shows that flag alone breaks its guarantee (and, where cheap,
    // that a neighbouring guarantee still holds: the flag breaks that one thing, not the gate).
    const FLAGS: { fault: string; breaks: string; check(p: PythonPeer): Promise<void> }[] = [
      {
        fault: 'acceptance-completes-without-waiting',
        breaks: 'COMPLETED with its artifacts, never pending',
        async check(p) {
          const t = await created(p, {});
          expect(t.status.state).toBe(w.state.completed);
          expect(t.artifacts).toHaveLength(1);
          expect((await create(p, { maxRejections: 11 })).body.error.code).toBe(-32040);
        },
      },
      {
        fault: 'acceptance-accepts-second-decision',
        breaks: 'a decision on a decided task gets a result, not -32042',
        async check(p) {
          const creator = { headers: { ...activate, authorization: 'Bearer creator' } };
          const t = await created(p, {}, creator);
          expect((await decide(p, t, { action: 'accept' }, { headers: activate })).body.error.code).toBe(-32043);
          expect(w.task((await decide(p, t, { action: 'accept' }, creator)).body.result).status.state).toBe(
            w.state.completed,
          );
          const second = await decide(p, t, { action: 'reject', reason: 'OTHER' }, creator);
          expect(second.body.error).toBeUndefined();
          expect(second.body.result).toBeTruthy();
        },
      },
      {
        fault: 'acceptance-ignores-authorization',
        breaks: "an intruder's decision is applied",
        async check(p) {
          const t = await created(p, {}, { headers: { ...activate, authorization: 'Bearer creator' } });
          const intruder = await decide(
            p,
            t,
            { action: 'accept' },
            { headers: { ...activate, authorization: 'Bearer intruder' } },
          );
          expect(w.task(intruder.body.result).status.state).toBe(w.state.completed);
          expect((await decide(p, t, { action: 'accept' })).body.error.code).toBe(-32042);
        },
      },
      {
        fault: 'acceptance-parks-before-artifacts',
        breaks: "the pending status is streamed before the attempt's artifact",
        async check(p) {
          const events = await streamEvents(p.url, w, { message: w.message([w.text('go')]) }, activate);
          const pendingAt = events.findIndex(
            ([k, e]) => k === 'status' && e.status.message?.metadata?.[PENDING] === true,
          );
          const artifactAt = events.findIndex(([k]) => k === 'artifact');
          expect(pendingAt).toBeGreaterThanOrEqual(0);
          expect(artifactAt === -1 || artifactAt > pendingAt).toBe(true);
        },
      },
      {
        fault: 'acceptance-forgets-rejections',
        breaks: 'after a restart the rejection count starts again',
        async check(p) {
          const kept = await created(p, { maxRejections: 1 });
          await decide(p, kept, { action: 'reject', reason: 'OTHER' });
          expect(w.task((await decide(p, kept, { action: 'reject', reason: 'OTHER' })).body.result).status.state).toBe(
            w.state.failed,
          );
          const counted = await created(p, { maxRejections: 1 });
          await decide(p, counted, { action: 'reject', reason: 'OTHER' });
          await restart(p);
          expect(isPending(w.task((await decide(p, counted, { action: 'reject', reason: 'OTHER' })).body.result))).toBe(
            true,
          );
        },
      },
      {
        fault: 'acceptance-skips-criteria-validation',
        breaks: 'criteria past the cap and with unknown fields create a task',
        async check(p) {
          const t = await created(p, { maxRejections: 99, surprise: true });
          expect(isPending(t)).toBe(true);
          expect((await decide(p, t, { action: 'reject', reason: 'BORED' })).body.error.code).toBe(-32044);
        },
      },
      {
        fault: 'acceptance-ignores-max-rejections',
        breaks: 'a rejection past maxRejections retries',
        async check(p) {
          const t = await created(p, { maxRejections: 0 });
          expect(isPending(w.task((await decide(p, t, { action: 'reject', reason: 'OTHER' })).body.result))).toBe(true);
          const u = await created(p, { maxRejections: 5 });
          expect(
            w.task((await decide(p, u, { action: 'reject', reason: 'OTHER', retry: false })).body.result).status.state,
          ).toBe(w.state.failed);
        },
      },
      {
        fault: 'acceptance-ignores-retry-false',
        breaks: 'retry: false retries',
        async check(p) {
          const t = await created(p, { maxRejections: 5 });
          expect(
            isPending(w.task((await decide(p, t, { action: 'reject', reason: 'OTHER', retry: false })).body.result)),
          ).toBe(true);
          const u = await created(p, { maxRejections: 0 });
          expect(w.task((await decide(p, u, { action: 'reject', reason: 'OTHER' })).body.result).status.state).toBe(
            w.state.failed,
          );
        },
      },
      {
        fault: 'acceptance-no-timeout',
        breaks: 'still pending well past acceptanceTimeoutSeconds',
        async check(p) {
          const t = await created(p, { acceptanceTimeoutSeconds: 1 });
          // the correct peer fails it within ~1.2 s (see "pending past acceptanceTimeoutSeconds")
          expect(isPending(await waitState(p, t.id, w.state.failed, 3_000))).toBe(true);
        },
      },
      {
        fault: 'acceptance-drops-feedback',
        breaks: "a rejection's feedback text is not in history",
        async check(p) {
          const t = await created(p, {});
          const feedback = `needs more detail ${randomUUID()}`;
          const again = w.task(
            (await decide(p, t, { action: 'reject', reason: 'OTHER' }, { text: feedback })).body.result,
          );
          expect(isPending(again)).toBe(true);
          expect(JSON.stringify(again.history)).not.toContain(feedback);
        },
      },
      {
        // an existing flag of the hitl peer: it drops the acceptance echo too, the gate itself still works
        fault: 'no-extension-echo',
        breaks: 'the activated acceptance URI is not echoed',
        async check(p) {
          const r = await create(p, {});
          expect(r.headers.get('a2a-extensions')).toBeNull();
          expect(r.headers.get('x-a2a-extensions')).toBeNull();
          expect(isPending(w.task(r.body.result))).toBe(true);
        },
      },
    ];
    // The flags live in the peers' shared acceptance module, the same code under both SDKs, and the
    // rig's verdicts on them run on 1.3.0 (foreignPeers.verdicts.test.ts): one SDK shows what each breaks.
    if (sdk === '1.3.0')
      describe('fault flags', () => {
        for (const flag of FLAGS) {
          it(`${flag.fault}: ${flag.breaks}`, async () => {
            const p = await startPythonPeer({ sdk, faults: [flag.fault] });
            try {
              await flag.check(p);
            } finally {
              await p.close();
            }
          }, 40_000);
        }
      });
  });
}
