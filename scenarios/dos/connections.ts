// dos-connections: an idle-connection flood beside legitimate HITL traffic (issue 14): from its own
// source address (127.0.0.2) the attack opens more connections than the agent allows one client
// (the reference agent: 512 per client IP, 4,096 in all) and sends nothing; those beyond the bound
// must be shed at once (within maxShedMs), while the humans' round trips, from 127.0.0.1, keep
// their p99, error rate and the agent its memory. Gates: rig/engine/dosVerdicts.ts.
// The count is bounded by the rig's open-files soft limit less 256 kept for everything else (with
// `ulimit -n` 1024: at most 768 connections, which still exceeds the reference per-client bound).
import { defineScenario } from '../../rig/engine/defineScenario.ts';
import { DOS_RECORDS, dosBudget, dosProfile, openFilesSoftLimit, runDosFamily, type DosParams } from '../../rig/engine/dosScenario.ts';

// Connections the agent keeps are cut by its headers timeout (5 s); holdMs 6 s and a cap 8 s past
// the starts let that happen inside the during phase.
const sizes = (attackMs: number) => ({ attackMs, attackCapMs: attackMs + 8_000 });
const smoke = dosProfile('smoke', { 'idle-connections': { rate: 400, max: 700, holdMs: 6_000 } }, sizes(2_000));
const ci = dosProfile('ci', { 'idle-connections': { rate: 400, max: 2_000, holdMs: 6_000 } }, sizes(10_000));
const full = dosProfile('full', { 'idle-connections': { rate: 500, max: 6_000, holdMs: 6_000 } }, sizes(60_000));

export default defineScenario<DosParams>({
  name: 'dos-connections',
  description: 'an idle-connection flood from another client address beside legitimate HITL round trips: connections beyond the agent\'s bound shed at once; the attack tax, errors, memory and recovery gated',
  tags: ['dos', 'hostile'],
  needs: { extension: true },
  params: { smoke, ci, full },
  budgetMs: { smoke: dosBudget(smoke), ci: dosBudget(ci), full: dosBudget(full) },
  records: DOS_RECORDS,
  run(ctx, p) {
    const choice = p.attacks['idle-connections'];
    const room = openFilesSoftLimit() - 256;
    if (choice && choice.max > room) {
      ctx.log(`idle-connections: ${choice.max} connections capped at ${room} by the open-files soft limit`);
      p = { ...p, attacks: { ...p.attacks, 'idle-connections': { ...choice, max: Math.max(1, room) } } };
    }
    return runDosFamily(ctx, ['idle-connections'], p);
  },
});
