// Every 422 / -32011 is held against the contract's examples/invalid-response-422.json: error.data
// is {extension, prompt_id (the answered prompt), validation_errors[{path, keyword, message}]}. When
// validation_errors sits elsewhere (inside a google.rpc ErrorInfo in error.data, as an SDK renders
// errors, or in details[]) the finding names where it was found, and cf3 fails on it (the array
// is the spec's MUST); the rest of that shape, entries' keys included, only makes cf3 warn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, userMessage } from '../rig/client/index.ts';
import { classifyAnswer } from '../rig/client/answerOutcome.ts';
import { locateValidationErrors, rejectionContractBreaches } from '../rig/client/rejectionContract.ts';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { HITL_PROMPT_URI, invalidResponseExample } from '../rig/protocol/hitlPrompt.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { startFakeSdkAgent } from './support/fakeSdkAgent.ts';

const PROMPT = 'f7d4b1c0-9b25-4e8c-a4ce-3d6a51e8a772';
const entries = [{ path: '/approved', keyword: 'type', message: 'expected boolean, got string' }];
const meta = { httpStatus: 422, echoedExtensions: [], startedAt: 0, completedAt: 1, latencyMs: 1 };

describe('the 422 contract', () => {
  it('the contract example itself has no breach', () => {
    expect(rejectionContractBreaches(invalidResponseExample.response.jsonrpcError, PROMPT)).toEqual([]);
  });

  it.each([
    [
      'no extension',
      { prompt_id: PROMPT, validation_errors: entries },
      ['error.data.extension is absent; the contract says ' + HITL_PROMPT_URI],
    ],
    [
      'another prompt_id',
      { extension: HITL_PROMPT_URI, prompt_id: '00000000-0000-4000-8000-000000000000', validation_errors: entries },
      [`error.data.prompt_id is 00000000-0000-4000-8000-000000000000, not the answered prompt ${PROMPT}`],
    ],
    [
      'validation_errors inside a google.rpc ErrorInfo (a2a-sdk rendering)',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'hitl_response_invalid',
          metadata: { extension: HITL_PROMPT_URI, prompt_id: PROMPT, validation_errors: JSON.stringify(entries) },
        },
      ],
      [
        'error.data is an array, not the object {extension, prompt_id, ' +
          'validation_errors} of examples/invalid-response-422.json',
        'validation_errors is at error.data[0].metadata.validation_errors (inside a google.rpc.ErrorInfo, ' +
          'as a JSON string), not at error.data.validation_errors',
      ],
    ],
    [
      "entries not in the example's shape",
      { extension: HITL_PROMPT_URI, prompt_id: PROMPT, validation_errors: ['approved: expected boolean', ...entries] },
      ["1 of 2 validation_errors entries lack the example's string path, keyword and message"],
    ],
  ])('%s is a breach', (_name, data, breaches) => {
    expect(rejectionContractBreaches({ code: -32011, message: 'hitl_response_invalid', data }, PROMPT)).toEqual(
      breaches,
    );
  });

  it('names details[] when validation_errors is there', () => {
    const error = {
      code: 422,
      message: 'hitl_response_invalid',
      details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', validation_errors: entries }],
    };
    expect(locateValidationErrors(error)).toBe('error.details[0].validation_errors (inside a google.rpc.BadRequest)');
    expect(rejectionContractBreaches(error, PROMPT)).toContain(
      'validation_errors is at error.details[0].validation_errors (inside ' +
        'a google.rpc.BadRequest), not at error.data.validation_errors',
    );
  });

  it('classifyAnswer keeps the class but lists the breach, and says where validation_errors was found', () => {
    const outcome = classifyAnswer(
      {
        ok: false,
        error: { code: -32011, message: 'hitl_response_invalid', data: [{ metadata: { validation_errors: entries } }] },
        meta,
      },
      PROMPT,
    );
    expect(outcome.kind).toBe('invalid');
    expect(outcome.validationErrors).toEqual([]);
    expect(outcome.contract).toContain(
      'validation_errors is at error.data[0].metadata.validation_errors, not at error.data.validation_errors',
    );
    expect(outcome.problems).toContain(
      'the rejection has no data.validation_errors entries (validation_errors is at ' +
        'error.data[0].metadata.validation_errors, not at error.data.validation_errors)',
    );
  });

  it('classifyAnswer counts every validation_errors entry (the MUST is the array), keeps the example-shaped', () => {
    const data = { extension: HITL_PROMPT_URI, prompt_id: PROMPT, validation_errors: ['approved: bad', ...entries] };
    const outcome = classifyAnswer(
      { ok: false, error: { code: -32011, message: 'hitl_response_invalid', data }, meta },
      PROMPT,
    );
    expect(outcome).toMatchObject({
      kind: 'invalid',
      validationErrorCount: 2,
      validationErrors: entries,
      problems: [],
    });
    expect(outcome.contract).toEqual([
      "1 of 2 validation_errors entries lack the example's string path, keyword and message",
    ]);
  });
});

describe('the reference agent', () => {
  let agent: Awaited<ReturnType<typeof inProcessAgent>>;
  let client: A2AClient;
  beforeAll(async () => {
    agent = await inProcessAgent();
    client = await A2AClient.open(agent.url);
  });
  afterAll(async () => {
    await client?.close();
    await agent?.cleanup();
  });

  it('rejects an invalid answer (and a non-object payload) with the contract data', async () => {
    const sent = await client.send(userMessage({ text: 'go' }));
    if (!sent.ok || !('task' in sent.value)) throw new Error('no task');
    const prompt = client.promptOf(sent.value.task);
    if (!prompt?.ok) throw new Error('no prompt');
    const invalid = await client.answer(sent.value.task.id, prompt.envelope.prompt_id, { approved: 'yes' });
    expect(invalid).toMatchObject({ kind: 'invalid', contract: [], problems: [] });
    const notObject = await client.answerRaw(sent.value.task.id, prompt.envelope.prompt_id, '7');
    expect(notObject).toMatchObject({ kind: 'invalid', contract: [] });
  });
});

const all = await loadScenarios();

describe('cf3 against an agent that renders validation_errors as an SDK does', () => {
  it(
    'fails the contract check, naming where the array was; passes when the data is as the contract shows',
    { timeout: 60_000 },
    async () => {
      for (const invalidData of ['error-info', 'contract'] as const) {
        const agent = await startFakeSdkAgent({ generation: '1.0', refuseSubscribe: 'json', invalidData });
        try {
          const run = await runScenarios(selectScenarios(all, ['cf3']), {
            profile: 'smoke',
            target: agent.url,
            toxiproxy: 'none',
            agentFault: [],
            a2aVersion: 'auto',
          });
          const [cf3] = run.scenarios;
          const contract = cf3.checks.filter((c) => c.name.includes('examples/invalid-response-422.json'));
          expect(contract.length, JSON.stringify(cf3)).toBeGreaterThan(0);
          if (invalidData === 'contract') {
            expect(cf3.verdict, JSON.stringify(cf3.checks)).toBe('passed');
          } else {
            expect(cf3.verdict).toBe('failed');
            expect(contract.every((c) => !c.ok)).toBe(true);
            expect(contract[0].detail).toContain(
              'validation_errors is at error.data[0].metadata.validation_errors ' +
                '(inside a google.rpc.ErrorInfo, as a JSON string)',
            );
          }
        } finally {
          await agent.close();
        }
      }
    },
  );
});
