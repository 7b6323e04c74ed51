// A2A 1.0 JSON is ProtoJSON: a field holding its default (false, 0, "", [], {}) is left out. The
// fixtures below are shaped as the official a2a-sdk 1.3.0 writes them (an AgentExtension with
// required: false arrives as `{"uri": …, "params": {}}`; a task without history or artifacts has
// neither key; an empty list of parts is absent). The rig must read absence as the default.
import { describe, expect, it } from 'vitest';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { streamEventFromWire, taskFromWire } from '../rig/protocol/wireInbound.ts';
import { messageFromWire } from '../rig/protocol/wireGenerations.ts';

const BASE = 'http://127.0.0.1:9';
const CARD_URL = `${BASE}/.well-known/agent-card.json`;

/** An agent card as a2a-sdk 1.3.0 serves it (MessageToDict: defaults omitted). */
const sdk130Card = {
  name: 'python-hitl-agent',
  description: 'hitl-prompt/v1 peer',
  supportedInterfaces: [{ url: `${BASE}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true, extensions: [{ uri: HITL_PROMPT_URI, params: {} }] },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'approve', name: 'approve', description: 'asks', tags: ['hitl'] }],
};

const envelope = {
  prompt_id: '0b6f3c52-5b0e-4a3c-9f43-2f1e7c9d8a11',
  prompt: 'Approve?',
  response_schema: { type: 'object', required: ['approved'], properties: { approved: { type: 'boolean' } } },
};

describe('ProtoJSON defaults (a2a-sdk 1.3.0 shapes)', () => {
  it('an extension declared as {uri, params: {}} is required: false, with no problem reported', () => {
    const agent = describeAgent(BASE, CARD_URL, sdk130Card);
    expect(agent.hitl).toMatchObject({ declared: true, required: false, params: {} });
    expect(agent.problems).toEqual([]);
  });

  it('a v1.0 card without its empty lists and strings lacks nothing; a v0.3 card still must carry them', () => {
    const { skills: _s, description: _d, ...bare } = sdk130Card;
    expect(describeAgent(BASE, CARD_URL, bare).problems).toEqual([]);
    const legacy = describeAgent(BASE, CARD_URL, {
      ...bare,
      supportedInterfaces: undefined,
      url: BASE,
      protocolVersion: '0.3.0',
    });
    expect(legacy.problems).toEqual(['the card lacks "description"', 'the card lacks "skills"']);
  });

  it('a declaration with required: "yes" is still reported, with undefined required', () => {
    const card = { ...sdk130Card, capabilities: { extensions: [{ uri: HITL_PROMPT_URI, required: 'yes' }] } };
    const agent = describeAgent(BASE, CARD_URL, card);
    expect(agent.hitl.required).toBeUndefined();
    expect(agent.problems).toEqual(['hitl-prompt/v1 is declared with required: "yes"; the spec says it MUST be false']);
  });

  it('a task without history, artifacts or metadata, and a status message without parts, read as empty', () => {
    const wire = {
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'm1', role: 'ROLE_AGENT', metadata: { [HITL_PROMPT_URI]: envelope } },
      },
    };
    const task = taskFromWire(wire);
    expect(task).toEqual({
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        timestamp: '',
        message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [], metadata: { [HITL_PROMPT_URI]: envelope } },
      },
      artifacts: [],
      history: [],
    });
  });

  it('stream events: a snapshot, a status update without message, an artifact without parts', () => {
    expect(
      streamEventFromWire({ task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } }),
    ).toEqual({
      task: {
        id: 't1',
        contextId: 'c1',
        status: { state: 'TASK_STATE_WORKING', timestamp: '' },
        artifacts: [],
        history: [],
      },
    });
    expect(
      streamEventFromWire({
        statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } },
      }),
    ).toEqual({
      statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED', timestamp: '' } },
    });
    expect(
      streamEventFromWire({ artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1' } } }),
    ).toEqual({
      artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1', parts: [] } },
    });
    expect(messageFromWire({ messageId: 'm', role: 'ROLE_USER' })).toEqual({
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [],
    });
  });

  it('a present field of the wrong type is still refused, naming it', () => {
    expect(() => messageFromWire({ messageId: 'm', role: 'ROLE_USER', parts: 'x' })).toThrow(
      'message.parts must be an array',
    );
    expect(() =>
      streamEventFromWire({
        artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1', parts: {} } },
      }),
    ).toThrow('parts must be an array');
  });
});
