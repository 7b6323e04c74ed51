// The anchor of each scenario's section in report.html, named after it (`#capacity`,
// `#resume-latency`), so a link to one survives a change of the run's order. Unique: a name that
// reduces to one already taken, or to a section of the page itself, gets `-2`, `-3` …; a name with
// nothing left (all punctuation) becomes `scenario`.

const PAGE_IDS = new Set(['headline', 'verdicts', 'thresholds', 'baseline', 'scenarios']);

export function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return s || 'scenario';
}

/** One anchor per name, in order, all distinct. */
export function scenarioAnchors(names: string[]): string[] {
  const taken = new Set(PAGE_IDS);
  return names.map((name) => {
    const base = slug(name);
    let id = base;
    for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
    taken.add(id);
    return id;
  });
}
