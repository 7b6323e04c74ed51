// dos-malformed: malformed requests beside legitimate HITL traffic (issue 14): bodies that are not
// JSON, or not UTF-8, must get a 4xx or a JSON-RPC parse error (never a 5xx); huge headers must be
// refused before the request is read (431, or a cut), while the humans' round trips keep their
// p99, error rate and the agent its memory. Gates: rig/engine/dos/dosVerdicts.ts.
import { defineScenario, dos } from 'a2a-rig';

const smoke = dos.dosProfile('smoke', {
  'malformed-json': { rate: 20, max: 60 },
  'bad-utf8': { rate: 20, max: 60 },
  'huge-headers': { rate: 5, max: 15 },
});
const ci = dos.dosProfile('ci', {
  'malformed-json': { rate: 50, max: 500 },
  'bad-utf8': { rate: 50, max: 500 },
  'huge-headers': { rate: 10, max: 100 },
});
const full = dos.dosProfile('full', {
  'malformed-json': { rate: 100, max: 6_000 },
  'bad-utf8': { rate: 100, max: 6_000 },
  'huge-headers': { rate: 20, max: 1_200 },
});

export default defineScenario<dos.DosParams>({
  name: 'dos-malformed',
  description:
    'malformed JSON, bad UTF-8 and huge headers beside legitimate HITL round trips: refused with no 5xx ' +
    '(huge headers before they are read), the attack tax, errors, memory and recovery gated',
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [
    { fault: 'parse-errors-500', attack: 'malformed-json' },
    { fault: 'no-header-limit', attack: 'huge-headers' },
  ],
  run: (ctx, p) => dos.runDosFamily(ctx, ['malformed-json', 'bad-utf8', 'huge-headers'], p),
});
