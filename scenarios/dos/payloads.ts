// dos-payloads: hostile answer payloads beside legitimate HITL traffic (issue 14). Oversized answers
// must be refused before the body is read (413 on Content-Length, or a cut), deeply nested ones
// and answers aimed at the prompt's own `pattern` (catastrophic backtracking: `^(a+)+$` against
// "aaaa…!") refused quickly, with no 5xx, while the humans' round trips keep their p99 (the attack
// tax), their error rate, and the agent its memory. Gates and their definitions: rig/engine/dos/dosVerdicts.ts.
// Against agents that follow a2a-rig scripts the attacks answer prompts whose schema carries that
// pattern and an open property (rig/engine/dos/dosScenario.ts PAYLOAD_STEPS: only the agent's own
// bounds refuse a deep or huge payload there); other agents' prompts may have no pattern, and the
// pattern attack then says so and is skipped.
import { defineScenario, dos } from 'a2a-rig';

// deep-answer at depth 100: past the validator's nesting bound (32 levels for the reference agent,
// which `no-depth-limit` removes), short of any parser's own bound, so the validator's is the one tested.
const deep = { depth: 100 };
const smoke = dos.dosProfile('smoke', {
  'oversized-answer': { rate: 5, max: 15 },
  'deep-answer': { rate: 10, max: 30, ...deep },
  'pattern-backtracking': { rate: 5, max: 10 },
});
const ci = dos.dosProfile('ci', {
  'oversized-answer': { rate: 10, max: 100 },
  'deep-answer': { rate: 20, max: 200, ...deep },
  'pattern-backtracking': { rate: 10, max: 100 },
});
const full = dos.dosProfile('full', {
  'oversized-answer': { rate: 20, max: 1_200 },
  'deep-answer': { rate: 50, max: 3_000, ...deep },
  'pattern-backtracking': { rate: 20, max: 1_200 },
});

export default defineScenario<dos.DosParams>({
  name: 'dos-payloads',
  description:
    'oversized, deeply nested and pattern-backtracking answers beside legitimate HITL round trips: refused ' +
    'fast with no 5xx, the attack tax, errors, memory and recovery gated',
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [
    { fault: 'no-body-limit', attack: 'oversized-answer' },
    { fault: 'backtracking-patterns', attack: 'pattern-backtracking' },
    { fault: 'no-depth-limit', attack: 'deep-answer' },
  ],
  run: (ctx, p) =>
    dos.runDosFamily(ctx, ['oversized-answer', 'deep-answer', 'pattern-backtracking'], p, { payloadPrompts: true }),
});
