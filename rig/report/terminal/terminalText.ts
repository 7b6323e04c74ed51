// What an agent says (its card name, a status text, an error message) is data, and it reaches
// the user's terminal and files through skip reasons, check details, progress lines, summary.md
// and junit.xml. Raw, an ESC sequence recolours or clears the terminal, CR overwrites a line with
// another, BEL rings, a bidi override (U+202E) makes text read backwards, and a forged newline adds
// a line the rig never wrote. Every place that prints or writes text for people calls one of the
// functions here; results.json keeps the raw strings (JSON escapes them itself).
//
// Such characters are rendered visibly, as the escape a JavaScript string would use (`\u001b`),
// not dropped, so a user sees that something was there.

/**
 * C0 controls but tab and newline, DEL, C1 controls, the bidi embeddings, overrides and isolates
 * (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), the line and paragraph separators
 * (U+2028, U+2029), the noncharacters U+FFFE and U+FFFF, and lone surrogates.
 */
const UNPRINTABLE_CHAR =
  // eslint-disable-next-line no-control-regex -- control characters are what this must find, to show them escaped
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNPRINTABLE = new RegExp(`${UNPRINTABLE_CHAR.source}|${LONE_SURROGATE.source}`, 'g');
const UNPRINTABLE_OR_NEWLINE = new RegExp(`\\n|${UNPRINTABLE.source}`, 'g');

const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with every character that can act on a terminal (or confuse a reader) shown as `\uXXXX`;
 * tab and newline stay.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, visible);
}

/**
 * As `printable`, and a newline also shown as `\u000a`: for text inside one line (a progress line,
 * a reason).
 */
export function printableLine(text: string): string {
  return text.replace(UNPRINTABLE_OR_NEWLINE, visible);
}
