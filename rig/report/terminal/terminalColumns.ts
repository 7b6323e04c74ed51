// Text in terminal columns for the end-of-run summary (terminalSummary.ts): a column is a code point
// (the summary's text is made printable first, terminalText.ts), padded, cut with an ellipsis at
// either end, or wrapped under an indent.

export const length = (s: string) => [...s].length;

/** `s` cut to `width` characters, the last one an ellipsis when anything was cut. */
export function fit(s: string, width: number): string {
  const chars = [...s];
  if (chars.length <= width) return s;
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`;
}

export const padEnd = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - length(s)));
export const padStart = (s: string, width: number) => ' '.repeat(Math.max(0, width - length(s))) + s;

/**
 * `text` in lines of at most `width` characters: the first after `first`, the others after `rest`
 * (both indents), broken at spaces, a word longer than a whole line broken where the line ends; at
 * most `maxLines` lines, the last ending in "…" when text was left out.
 */
export function wrap(text: string, width: number, first: string, rest: string, maxLines = 4): string[] {
  const room = Math.max(1, width - length(rest));
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    const candidate = empty ? line + word : `${line} ${word}`;
    if (length(candidate) <= width) {
      line = candidate;
      empty = false;
      continue;
    }
    if (!empty && length(word) <= room) {
      lines.push(line);
      line = rest + word;
      continue;
    }
    // Too long for any line: fill this one, go on in the next ones.
    let chars = [...(empty ? word : ` ${word}`)];
    while (chars.length > 0) {
      const free = width - length(line);
      if (free <= 0) {
        lines.push(line);
        line = rest;
        continue;
      }
      line += chars.slice(0, free).join('');
      chars = chars.slice(free);
    }
    empty = false;
  }
  if (!empty) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fit(`${kept[maxLines - 1]!}…`, width);
  return kept;
}

/** `s` in `width` characters keeping its end (a path's file and line), an ellipsis first when cut. */
export function fitTail(s: string, width: number): string {
  const chars = [...s];
  return chars.length <= width ? s : `…${chars.slice(chars.length - width + 1).join('')}`;
}
