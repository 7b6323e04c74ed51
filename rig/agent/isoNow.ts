// The current time as an ISO 8601 string, as task status timestamps carry it. Formatting a Date
// costs several times reading the clock, and a busy turn stamps many transitions within one
// millisecond: the string is made once per millisecond.
let lastMs = Number.NaN;
let lastIso = '';

export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
