import { startAgent } from './rig/agent/startAgent.ts';
import { ATTACKS, type AttackName } from './rig/attack/attackRegistry.ts';
import { attackTarget, scriptedPromptOpener } from './rig/attack/attackTarget.ts';
import type { AttackOutcome } from './rig/attack/attackTypes.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const gen = (process.argv[2] ?? '1.0') as '1.0' | '0.3';
const binding = (process.argv[3] ?? 'JSONRPC') as 'JSONRPC' | 'HTTP+JSON';
const agent = await startAgent({ dbPath: join(mkdtempSync(join(tmpdir(), 'att-')), 'o.db'), headersTimeoutMs: 500, requestTimeoutMs: 1000, limits: { maxStreamsPerTask: 2 } });
const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] };
const base = attackTarget({ baseUrl: agent.url, generation: gen, binding });
const target = { ...base, openPrompt: scriptedPromptOpener(base, { responseSchema: schema, validPayload: { code: 'aaa' } }) };
const params: Record<string, object> = { 'slow-body': { holdMs: 4000 }, slowloris: { holdMs: 4000 }, 'idle-connections': { holdMs: 4000 }, 'unread-streams': { holdMs: 1500 }, 'unread-replay': { holdMs: 1500 } };
for (const name of (process.argv[4]?.split(',') ?? Object.keys(ATTACKS)) as AttackName[]) {
  const outcomes: AttackOutcome[] = [];
  const t = performance.now();
  const report = await ATTACKS[name].run(target, params[name] ?? {}, { ratePerSecond: 20, maxRequests: 4, durationMs: 1000, signal: new AbortController().signal, onOutcome: (o) => outcomes.push(o) });
  console.log(name, Math.round(performance.now() - t), 'ms', JSON.stringify(outcomes.map((o) => [o.kind, o.status, o.code, Math.round(o.latencyMs), o.beforeBodyEnd, o.detail?.slice(0, 100)])), report.notes.filter((n) => !n.startsWith('attack sockets')));
}
await agent.close();
