// A card that declares an extension `required: true` the rig does not understand: the run stops
// after reading the card, before any other request, with a usage error naming the extension and the
// --activate flag (the agent would refuse every request, and the rig would blame it). With
// --activate the run goes on and every request activates it beside the rig's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';
import { answerTaskNotFound } from './support/steeringCard.ts';

const MUST = 'urn:example:must-activate';
const OTHER = 'https://example.com/ext/also-required/v2';

let dir: string;
let server: Server;
let url = '';
let seen: { method: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-rig-required-'));
  server = createServer((req, res) => {
    seen.push({ method: req.method!, headers: req.headers });
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: 'strict',
          description: 'x',
          version: '1',
          supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: {
            extensions: [
              // hitl-prompt/v1 the rig understands; `required: false` left out (ProtoJSON) is not required.
              { uri: HITL_PROMPT_URI, params: {} },
              { uri: MUST, required: true },
              { uri: OTHER, required: true },
              { uri: 'urn:example:optional' },
            ],
          },
        }),
      );
    }
    answerTaskNotFound(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen = [];
});

describe('required extensions the rig does not understand', () => {
  it('conform stops after the card, naming each and the --activate flags: exit 2, nothing else sent', async () => {
    const run = await runRig(['conform', '--target', url, '--toxiproxy', 'none', '--out', join(dir, 'a')]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      'the agent card declares 2 extensions required that the rig does not understand and was not activated: ' +
        `${MUST}, ${OTHER}`,
    );
    expect(run.stderr).toContain(`pass --activate ${MUST} --activate ${OTHER}`);
    expect(seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('one left unactivated still stops the run; it alone is named', async () => {
    const out = join(dir, 'b');
    const run = await runRig([
      'run',
      'agent-card',
      '--target',
      url,
      '--toxiproxy',
      'none',
      '--out',
      out,
      '--activate',
      MUST,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `declares an extension required that the rig does not understand and was not activated: ${OTHER};`,
    );
    expect(seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('with both activated the run goes on and every request activates them beside the rig’s own', async () => {
    const out = join(dir, 'c');
    const args = ['run', 'agent-card', '--target', url, '--toxiproxy', 'none', '--out', out];
    const run = await runRig([...args, '--activate', MUST, '--activate', OTHER]);
    expect(run.stderr).toContain(`activating the card's required ${MUST}, ${OTHER} (--activate)`);
    const posts = seen.filter((s) => s.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) expect(p.headers['a2a-extensions']).toBe(`${HITL_PROMPT_URI}, ${MUST}, ${OTHER}`);
    expect(run.code, run.stderr).not.toBe(2);
    // agent-card names them too, in its log.
    const card = readRunFiles(out).results.scenarios.find((r) => r.name === 'agent-card')!;
    expect((card.log ?? []).map((l) => l.line)).toContain(
      `the card declares required: ${MUST}, ${OTHER} (each activated)`,
    );
  });
});
