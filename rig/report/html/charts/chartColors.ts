// The colours of the report's charts: series in Tableau 10, and the shadings and bars that mean
// the same in every chart of a scenario (a fault in place, the proxy disabled, a restart, an attack).

/** Distinguishable on white and in greyscale order (Tableau 10). */
export const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
export const FAULT_COLOR = 'rgba(225, 87, 89, 0.14)';
export const DISABLED_COLOR = 'rgba(120, 120, 120, 0.22)';
export const RESTART_COLOR = '#b03030';
/** Translucent, apart from the faults' red; an attack keeps its color in every chart of the scenario. */
export const ATTACK_COLORS = [
  'rgba(242, 142, 43, 0.20)',
  'rgba(176, 122, 161, 0.22)',
  'rgba(118, 183, 178, 0.26)',
  'rgba(237, 201, 72, 0.26)',
];
export const ATTACK_BAR_COLORS = [PALETTE[1], PALETTE[6], PALETTE[4], PALETTE[5]];
