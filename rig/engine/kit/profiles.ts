// The run profiles every scenario sizes itself for: its params and time budget per profile.

export const PROFILES = ['smoke', 'ci', 'full'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** The same value for every profile, for scenarios whose size does not change with the profile. */
export function everyProfile<T>(value: T): Record<ProfileName, T> {
  return { smoke: value, ci: value, full: value };
}
