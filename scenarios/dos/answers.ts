// dos-answers: answer floods beside legitimate HITL traffic (issue 14): duplicate answers to live
// prompts (the first answer wins; every later one must be refused, never applied twice) and
// answers naming a prompt_id that does not exist, refused fast with no 5xx while the humans'
// round trips keep their p99, error rate and the agent its memory. Gates: rig/engine/dos/dosVerdicts.ts.
import { defineScenario, dos } from 'a2a-rig';

const smoke = dos.dosProfile('smoke', {
  'duplicate-answers': { rate: 20, max: 60 },
  'unknown-prompt': { rate: 20, max: 60 },
});
const ci = dos.dosProfile('ci', {
  'duplicate-answers': { rate: 50, max: 500 },
  'unknown-prompt': { rate: 50, max: 500 },
});
const full = dos.dosProfile('full', {
  'duplicate-answers': { rate: 100, max: 6_000 },
  'unknown-prompt': { rate: 100, max: 6_000 },
});

export default defineScenario<dos.DosParams>({
  name: 'dos-answers',
  description:
    'duplicate-answer and unknown-prompt floods beside legitimate HITL round trips: every hostile answer ' +
    'refused fast with no 5xx, the attack tax, errors, memory and recovery gated',
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [{ fault: 'accept-duplicates', attack: 'duplicate-answers' }],
  run: (ctx, p) => dos.runDosFamily(ctx, ['duplicate-answers', 'unknown-prompt'], p),
});
