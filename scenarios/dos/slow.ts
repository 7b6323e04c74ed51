// dos-slow: slow clients beside legitimate HITL traffic (issue 14): slowloris (headers a byte at a
// time) and huge bodies sent slowly must be cut by the agent's own timeouts — the reference agent's
// headers timeout is 5 s and its request timeout 15 s — while the humans' round trips keep their
// p99, error rate and the agent its memory. Gates: rig/engine/dos/dosVerdicts.ts.
// Sizes: the attack starts for 2 s (smoke) and the during phase lasts until the agent has cut every
// slow request, so it must outlast the 15 s request timeout: `maxCutMs` 20 s (the timeout plus a
// 5 s margin for a loaded box) and the cap 22 s (the starts plus the margin); the attack's own hold
// bound must exceed maxCutMs so that a request the agent never cuts shows as `held`.
import { defineScenario, dos } from 'a2a-rig';

// Each burst lasts until the agent's cut (slow-body: its 15 s request timeout), so a burst costs
// 15 s whatever its starts: smoke runs two (the fewest a paired interval needs), ci and full three
// (what each burst adds to the run: docs/dos.md).
const sizes = (attackMs: number) => ({ attackMs, attackCapMs: attackMs + 20_000, maxCutMs: 20_000 });
const smoke = dos.dosProfile(
  'smoke',
  { 'slow-body': { rate: 2, max: 4 }, slowloris: { rate: 5, max: 10 } },
  { ...sizes(2_000), attackBursts: 2 },
);
const ci = dos.dosProfile(
  'ci',
  { 'slow-body': { rate: 5, max: 50 }, slowloris: { rate: 20, max: 200 } },
  sizes(10_000),
);
const full = dos.dosProfile(
  'full',
  { 'slow-body': { rate: 10, max: 600 }, slowloris: { rate: 50, max: 3_000 } },
  sizes(60_000),
);

export default defineScenario<dos.DosParams>({
  name: 'dos-slow',
  description:
    "slowloris and slowly sent bodies beside legitimate HITL round trips: each cut within the agent's " +
    'timeouts, with no 5xx; the attack tax, errors, memory and recovery gated',
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [{ fault: 'no-request-timeouts', attack: 'slowloris' }],
  run: (ctx, p) => dos.runDosFamily(ctx, ['slow-body', 'slowloris'], p),
});
