// HTML built so that escaping cannot be forgotten (spec S-1: whatever an agent or a scenario says
// is data, never markup): the `html` tag escapes every interpolated value unless it is already
// SafeHtml, i.e. itself built by `html`. Hand-written (a dozen lines) rather than a dependency:
// the report needs exactly this, for text and double-quoted attribute contexts. Control and bidi
// characters are shown as `\uXXXX` (terminalText.ts): a browser would hide them or let a U+202E
// turn the rest of a line around.
import { printable } from '../terminal/terminalText.ts';

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return printable(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped; arrays are joined; null, undefined and false vanish. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}
