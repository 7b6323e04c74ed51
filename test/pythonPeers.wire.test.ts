// The Python test peers themselves (test/peers/python), checked directly on the wire before the
// rig is trusted to judge them: if a "correct" peer were wrong, test/foreignPeers.verdicts.test.ts would
// prove nothing. Both SDK generations: the card, activation by either header and its echo, the
// contract's 409 and 422 (status, code and error.data), exactly one acceptance among 200
// concurrent answers, and durability across kill -9 through the restart command.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive } from './support/localHost.ts';
import { pythonPeerMissing, startPythonPeer, type PeerSdk, type PythonPeer } from './support/pythonPeers.ts';

const URI = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1';

interface Wire {
  send: string;
  get: string;
  header: string;
  message(text: string, extra?: Record<string, unknown>): Record<string, unknown>;
  task(result: any): any;
  inputRequired: string;
}
const WIRES: Record<PeerSdk, Wire> = {
  '1.3.0': {
    send: 'SendMessage',
    get: 'GetTask',
    header: 'A2A-Extensions',
    message: (text, extra) => ({ messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra }),
    task: (result) => result.task,
    inputRequired: 'TASK_STATE_INPUT_REQUIRED',
  },
  '0.3.26': {
    send: 'message/send',
    get: 'tasks/get',
    header: 'X-A2A-Extensions',
    message: (text, extra) => ({
      kind: 'message',
      messageId: randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text }],
      ...extra,
    }),
    task: (result) => result,
    inputRequired: 'input-required',
  },
};

async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

for (const sdk of ['1.3.0', '0.3.26'] as const) {
  const missing = pythonPeerMissing(sdk);
  describe.skipIf(missing !== undefined)(`the a2a-sdk ${sdk} peer on the wire`, () => {
    const w = WIRES[sdk];
    let peer: PythonPeer;
    const activate = { [w.header]: URI };
    beforeAll(async () => {
      peer = await startPythonPeer({ sdk });
    }, 40_000);
    afterAll(async () => {
      const pid = peer?.pid();
      await peer?.close();
      if (pid) expect(processAlive(pid)).toBe(false);
    });

    const park = async (headers: Record<string, string> = activate) => {
      const r = await rpc(
        peer.url,
        w.send,
        { message: w.message('a2a-rig: please ask me for input (hitl-prompt/v1)') },
        headers,
      );
      expect(r.status).toBe(200);
      return { reply: r, task: w.task(r.body.result) };
    };
    const answer = (task: any, promptId: string, payload: unknown) =>
      rpc(
        peer.url,
        w.send,
        {
          message: w.message('answer', {
            taskId: task.id,
            contextId: task.contextId,
            metadata: { hitl_response_for: { prompt_id: promptId, payload } },
          }),
        },
        activate,
      );
    // GetTask answers with the Task itself on both wires (only a send wraps it as {task} on 1.0).
    const getTask = async (id: string) => (await rpc(peer.url, w.get, { id })).body.result;

    it('declares the extension (required false, empty params) and streaming in its card', async () => {
      const card = (await (await fetch(new URL('/.well-known/agent-card.json', peer.url))).json()) as any;
      expect(card.capabilities.streaming).toBe(true);
      const ext = card.capabilities.extensions.find((e: any) => e.uri === URI);
      expect(ext.params).toEqual({});
      expect(ext.required ?? false).toBe(false); // ProtoJSON (1.0) leaves a false out
    });

    it('parks a new task with an envelope only when activated (either header), and echoes the URI', async () => {
      for (const header of ['A2A-Extensions', 'X-A2A-Extensions']) {
        const { reply, task } = await park({ [header]: URI });
        expect(reply.headers.get('a2a-extensions')).toBe(URI);
        expect(reply.headers.get('x-a2a-extensions')).toBe(URI);
        expect(task.status.state).toBe(w.inputRequired);
        const env = task.status.message.metadata[URI];
        expect(env.prompt_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(env.response_schema).toMatchObject({
          type: 'object',
          additionalProperties: false,
          required: ['approved'],
        });
        expect(env.allowed_responders).toEqual(['any']);
        expect(Date.parse(env.deadline)).toBeGreaterThan(Date.now());
      }
      const { reply, task } = await park({});
      expect(reply.headers.get('a2a-extensions')).toBeNull();
      expect(task.status.state).toBe(w.inputRequired);
      expect(task.status.message.metadata?.[URI]).toBeUndefined();
    });

    it(
      '422 with the contract error.data, the task still parked; ' + 'then one acceptance among 200 concurrent answers',
      async () => {
        const { task } = await park();
        const promptId = task.status.message.metadata[URI].prompt_id;
        const bad = await answer(task, promptId, { approved: 'yes please', extra_unknown_field: 42 });
        expect(bad.status).toBe(422);
        expect(bad.body.error).toEqual({
          code: -32011,
          message: 'hitl_response_invalid',
          data: {
            extension: URI,
            prompt_id: promptId,
            validation_errors: expect.arrayContaining([
              { path: '/approved', keyword: 'type', message: 'expected boolean, got string' },
              {
                path: '/extra_unknown_field',
                keyword: 'additionalProperties',
                message: "additional property 'extra_unknown_field' is not permitted",
              },
            ]),
          },
        });
        expect(bad.body.error.data.validation_errors).toHaveLength(2);
        expect((await getTask(task.id)).status.state).toBe(w.inputRequired);

        const replies = await Promise.all(
          Array.from({ length: 200 }, () => answer(task, promptId, { approved: true })),
        );
        expect(replies.filter((r) => r.status === 200 && r.body.result)).toHaveLength(1);
        const refused = replies.filter((r) => r.status === 409);
        expect(refused).toHaveLength(199);
        expect(refused[0].body.error).toEqual({
          code: -32010,
          message: 'hitl_already_answered_or_unknown',
          data: { extension: URI, prompt_id: promptId },
        });
        expect((await getTask(task.id)).status.state).not.toBe(w.inputRequired);
        expect((await answer(task, randomUUID(), { approved: true })).status).toBe(409);
      },
      30_000,
    );

    it('after kill -9 and restart: an open prompt keeps its envelope, an answered one stays answered', async () => {
      const open = (await park()).task;
      const done = (await park()).task;
      const doneId = done.status.message.metadata[URI].prompt_id;
      expect((await answer(done, doneId, { approved: false })).status).toBe(200);
      const before = peer.pid();
      await promisify(execFile)('sh', ['-c', peer.restartCmd], { timeout: 10_000 });
      expect(processAlive(before)).toBe(false);
      for (let i = 0; i < 300; i++) {
        if (
          await fetch(new URL('/.well-known/agent-card.json', peer.url)).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const reopened = await getTask(open.id);
      expect(reopened.status.state).toBe(w.inputRequired);
      expect(reopened.status.message.metadata[URI]).toEqual(open.status.message.metadata[URI]);
      expect((await answer(done, doneId, { approved: true })).status).toBe(409);
      const openId = open.status.message.metadata[URI].prompt_id;
      expect((await answer(open, openId, { approved: true })).status).toBe(200);
    }, 30_000);

    describe('fault flags', () => {
      const withPeer = async (faults: string[], body: (p: PythonPeer) => Promise<void>) => {
        const saved = peer;
        const faulty = await startPythonPeer({ sdk, faults });
        peer = faulty;
        try {
          await body(faulty);
        } finally {
          peer = saved;
          await faulty.close();
        }
      };

      it('sdk-errors, no-extension-echo, envelope-extra-field, envelope-without-activation', async () => {
        await withPeer(
          ['sdk-errors', 'no-extension-echo', 'envelope-extra-field', 'envelope-without-activation'],
          async () => {
            const { reply, task } = await park({});
            const env = task.status.message.metadata[URI];
            expect(env.ui_hint).toBe('modal-dialog');
            expect((await park()).reply.headers.get('a2a-extensions')).toBeNull();
            expect(reply.headers.get('x-a2a-extensions')).toBeNull();
            const bad = await answer(task, env.prompt_id, { approved: 1 });
            expect(bad.status).toBe(200);
            expect(bad.body.error.code).toBe(-32011);
            const [info] = bad.body.error.data;
            expect(info['@type']).toBe('type.googleapis.com/google.rpc.ErrorInfo');
            expect(JSON.parse(info.metadata.validation_errors)).toEqual([
              { path: '/approved', keyword: 'type', message: 'expected boolean, got integer' },
            ]);
          },
        );
      }, 30_000);

      it('duplicate-accepted, keep-input-required, volatile, no-validation, slow-resume', async () => {
        await withPeer(
          ['duplicate-accepted', 'keep-input-required', 'volatile', 'no-validation', 'slow-resume'],
          async (p) => {
            const { task } = await park();
            const id = task.status.message.metadata[URI].prompt_id;
            const t0 = performance.now();
            expect((await answer(task, id, { nonsense: 'x' })).status).toBe(200);
            expect(performance.now() - t0).toBeGreaterThan(1_400); // the blocking send waits for the (slow) resume
            expect((await answer(task, id, { approved: true })).status).toBe(200);
            expect((await getTask(task.id)).status.state).toBe(w.inputRequired);
            await promisify(execFile)('sh', ['-c', p.restartCmd], { timeout: 10_000 });
            for (let i = 0; i < 300; i++) {
              if (
                await fetch(new URL('/.well-known/agent-card.json', p.url)).then(
                  (r) => r.ok,
                  () => false,
                )
              )
                break;
              await new Promise((r) => setTimeout(r, 50));
            }
            expect((await rpc(p.url, w.get, { id: task.id })).body.error.code).toBe(-32001); // TaskNotFound
          },
        );
      }, 30_000);
    });

    it('SIGTERM: the peer exits by itself, promptly', async () => {
      const pid = peer.pid();
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(processAlive(pid)).toBe(false);
    });
  });
}
