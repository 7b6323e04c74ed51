// dos-streams: event streams never read beside legitimate HITL traffic (issue 14): SSE
// subscriptions and replay sockets (/events) opened and left unread, so the agent's writes back up.
// The agent must bound them — streams per task and in total refused beyond the bound at once, a
// reader whose buffer overflows cut — and its memory must stay bounded, while the humans' round
// trips keep their p99 and error rate. Gates: rig/engine/dos/dosVerdicts.ts. The memory bound is wider
// here: the reference agent lets unread streams queue up to 128 MiB in total, by design.
// unread-replay needs the replay plane and is left out (logged) for an agent without one.
import { defineScenario, dos } from 'a2a-rig';

const memory = { maxRssGrowthMb: 256 };
// Unread streams are held for holdMs, then let go by the attack: within the cap, so the during
// phase ends when they do. A probe every 200 ms: an agent whose only stream bound is a reader's
// buffer cuts the stream, and the attack sees that cut only at its next probe (after the stream's
// first frame), which must come within maxShedMs (1 s) for the cut to count as shed at once.
const hold = { holdMs: 4_000, probeMs: 200 };
// Each burst is the whole attack (it must pass the agent's stream bounds each time): two at smoke.
const smoke = dos.dosProfile(
  'smoke',
  { 'unread-streams': { rate: 40, max: 80, ...hold }, 'unread-replay': { rate: 40, max: 80, ...hold } },
  { ...memory, attackBursts: 2 },
);
const ci = dos.dosProfile(
  'ci',
  { 'unread-streams': { rate: 50, max: 400, ...hold }, 'unread-replay': { rate: 50, max: 400, ...hold } },
  memory,
);
const full = dos.dosProfile(
  'full',
  { 'unread-streams': { rate: 50, max: 2_000, ...hold }, 'unread-replay': { rate: 50, max: 2_000, ...hold } },
  memory,
);

export default defineScenario<dos.DosParams>({
  name: 'dos-streams',
  description:
    'SSE streams and replay sockets opened and never read beside legitimate HITL round trips: shed beyond ' +
    "the agent's bounds, its memory bounded; the attack tax, errors and recovery gated",
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [{ fault: 'unbounded-streams', attack: 'unread-streams' }],
  run: (ctx, p) => dos.runDosFamily(ctx, ['unread-streams', 'unread-replay'], p),
});
