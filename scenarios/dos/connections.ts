// dos-connections: an idle-connection flood beside legitimate HITL traffic (issue 14): from its own
// source address (127.0.0.2) the attack opens more connections than the agent allows one client
// (`clientBound`: the reference agent's default per-client bound, 1,024; 4,096 in all) and sends
// nothing; those beyond the bound must be shed at once (within maxShedMs), while the humans' round
// trips, from 127.0.0.1, keep their p99, error rate and the agent its memory. Gates:
// rig/engine/dos/dosVerdicts.ts. The flood is bounded by the rig's open-files soft limit less 256 kept
// for everything else; when that leaves no room past clientBound (`ulimit -n` 1024 on some CI
// boxes) the scenario skips, saying so, rather than judge a flood that never reached the bound.
import { defineScenario, dos } from 'a2a-rig';

// Connections the agent keeps are cut by its headers timeout (5 s); holdMs 6 s and a cap 8 s past
// the starts let that happen inside the during phase.
const sizes = (attackMs: number) => ({ attackMs, attackCapMs: attackMs + 8_000 });
const bound = { clientBound: 1_024 };
const smoke = {
  // Each burst is the whole flood (it must pass the bound each time): two at smoke, not three.
  ...dos.dosProfile(
    'smoke',
    { 'idle-connections': { rate: 400, max: 1_300, holdMs: 6_000 } },
    { ...sizes(3_500), attackBursts: 2 },
  ),
  ...bound,
};
const ci = {
  ...dos.dosProfile('ci', { 'idle-connections': { rate: 500, max: 3_000, holdMs: 6_000 } }, sizes(10_000)),
  ...bound,
};
const full = {
  ...dos.dosProfile('full', { 'idle-connections': { rate: 500, max: 6_000, holdMs: 6_000 } }, sizes(60_000)),
  ...bound,
};

export default defineScenario<dos.DosParams & { clientBound: number }>({
  name: 'dos-connections',
  description:
    'an idle-connection flood from another client address beside legitimate HITL round trips: connections ' +
    "beyond the agent's bound shed at once; the attack tax, errors, memory and recovery gated",
  tags: ['dos', 'hostile'],
  needs: { hitlPrompt: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dos.dosBudget(smoke), ci: dos.dosBudget(ci), full: dos.dosBudget(full) },
  records: dos.DOS_RECORDS,
  catches: [{ fault: 'no-connection-limit', attack: 'idle-connections' }],
  run(ctx, p) {
    const choice = p.attacks['idle-connections'];
    const room = dos.openFilesSoftLimit() - 256;
    if (choice && choice.max > room) {
      if (room <= p.clientBound)
        ctx.skip(
          `the open-files soft limit leaves room for ${room} connections, ` +
            `not more than the agent's per-client bound (clientBound ${p.clientBound}): raise ulimit -n`,
        );
      ctx.log(`idle-connections: ${choice.max} connections capped at ${room} by the open-files soft limit`);
      p = { ...p, attacks: { ...p.attacks, 'idle-connections': { ...choice, max: room } } };
    }
    return dos.runDosFamily(ctx, ['idle-connections'], p);
  },
});
