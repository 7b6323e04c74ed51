// Inputs for catastrophic backtracking: finds the `pattern` keywords of a response_schema and, for
// each one with a quantified group that can match the same text in many ways (`(a+)+`, `(a|aa)*`,
// `(\w+\s?)*`), builds prefix + one iteration of the group repeated N times + a character that makes
// the whole match fail. A backtracking engine then tries every way to split the run (2^N); a
// linear-time engine answers at once.

export interface FoundPattern {
  pattern: string;
  /**
   * Property names from the schema's root to the string the pattern constrains ([] = the payload
   * itself); undefined when it sits under something else (items, anyOf, ...).
   */
  propertyPath: string[] | undefined;
}

/** Every `pattern` keyword of a schema, at any depth (bounded walk: 10,000 nodes). */
export function findPatterns(schema: unknown): FoundPattern[] {
  const found: FoundPattern[] = [];
  let budget = 10_000;
  const walk = (node: unknown, path: string[] | undefined) => {
    if (budget-- <= 0 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, undefined));
    const obj = node as Record<string, unknown>;
    if (typeof obj.pattern === 'string') found.push({ pattern: obj.pattern, propertyPath: path });
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [name, sub] of Object.entries(value)) walk(sub, path ? [...path, name] : undefined);
      } else if (key !== 'pattern' && typeof value === 'object') walk(value, undefined);
    }
  };
  walk(schema, []);
  return found;
}

/** The index after the group or class that starts at `start` (`(` or `[`), honouring escapes. */
function closing(p: string, start: number): number {
  let depth = 0;
  for (let i = start; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '[' && p[start] === '(') i = closing(p, i) - 1;
    else if (c === (p[start] === '(' ? '(' : '[')) depth++;
    else if (c === (p[start] === '(' ? ')' : ']') && --depth === 0) return i + 1;
  }
  return p.length;
}

function topLevelAlternatives(p: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') i = closing(p, i) - 1;
    else if (c === '|') {
      out.push(p.slice(last, i));
      last = i + 1;
    }
  }
  out.push(p.slice(last));
  return out;
}

function classSample(cls: string): string {
  const inner = cls.slice(1, -1);
  if (inner.startsWith('^')) return inner.includes('a') ? '0' : 'a';
  if (inner.startsWith('\\')) return escapeSample(inner[1]);
  return inner[0] ?? 'a';
}

function escapeSample(c: string): string {
  return ({ d: '1', w: 'a', s: ' ', D: 'a', W: '!', S: 'a', n: '\n', t: '\t' } as Record<string, string>)[c] ?? c;
}

/** One string the (simple) regex source matches: the first alternative, each atom once (`?` zero times). */
export function sampleOf(source: string): string {
  const p = topLevelAlternatives(source)[0];
  let out = '';
  for (let i = 0; i < p.length;) {
    let atom: string;
    const c = p[i];
    if (c === '^' || c === '$') {
      i++;
      continue;
    }
    if (c === '\\') {
      atom = escapeSample(p[i + 1] ?? '');
      i += 2;
    } else if (c === '[') {
      const end = closing(p, i);
      atom = classSample(p.slice(i, end));
      i = end;
    } else if (c === '(') {
      const end = closing(p, i);
      atom = sampleOf(p.slice(i + 1, end - 1).replace(/^\?(:|<[^>]*>|=|!)/, ''));
      i = end;
    } else {
      atom = c === '.' ? 'a' : c;
      i++;
    }
    let times = 1;
    if (p[i] === '?') times = 0;
    if (p[i] === '{') {
      const m = /^\{(\d+)/.exec(p.slice(i));
      times = m ? Math.max(1, Number(m[1])) : 1;
      i = p.indexOf('}', i) + 1 || p.length;
    } else if (p[i] === '+' || p[i] === '*' || p[i] === '?') i++;
    if (p[i] === '?' || p[i] === '+') i++; // lazy or possessive marker
    out += atom.repeat(times);
  }
  return out;
}

/** The first group whose body can match in many ways and is itself repeated: start, end, body. */
function nestedQuantifiedGroup(p: string): { start: number; end: number; body: string } | undefined {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] === '[') {
      i = closing(p, i) - 1;
      continue;
    }
    if (p[i] !== '(') continue;
    const end = closing(p, i);
    const body = p.slice(i + 1, end - 1).replace(/^\?(:|<[^>]*>)/, '');
    const repeated = /^([+*]|\{\d+,\d*\})/.test(p.slice(end));
    const ambiguous = /(^|[^\\])[+*|]|\{\d+,/.test(body);
    if (repeated && ambiguous) return { start: i, end, body };
  }
  return undefined;
}

/** The evil input for a pattern, or undefined when it has no repeated ambiguous group. */
export function backtrackingInput(pattern: string, repeat: number): string | undefined {
  const group = nestedQuantifiedGroup(pattern);
  if (!group) return undefined;
  const pump = sampleOf(group.body) || 'a';
  const prefix = sampleOf(pattern.slice(0, group.start));
  const fail =
    ['!', '#', '~', '\u00a7'].find((c) => !pump.includes(c) && !new RegExp(`^(?:${group.body})$`).test(c)) ?? '!';
  return `${prefix}${pump.repeat(repeat)}${fail}`;
}
