// What a scenario said as it ran (ctx.log, ctx.note), each line with its time, bounded: the first
// half of LOG_LINES_KEPT lines and the last half are kept, and the lines between them counted, so a
// scenario that logs in a loop costs bounded memory and its results still show how it began and ended.
import { LOG_LINES_KEPT, type LogLine } from '../results/runResult.ts';

export class ScenarioLog {
  private readonly head: LogLine[] = [];
  /** The last lines, a ring once full: `next` is the oldest. */
  private readonly tail: LogLine[] = [];
  private next = 0;
  private droppedLines = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(keep = LOG_LINES_KEPT) {
    this.headMax = Math.ceil(keep / 2);
    this.tailMax = keep - this.headMax;
  }

  push(line: LogLine): void {
    if (this.head.length < this.headMax) this.head.push(line);
    else if (this.tail.length < this.tailMax) this.tail.push(line);
    else if (this.tailMax === 0) this.droppedLines++;
    else {
      this.tail[this.next] = line;
      this.next = (this.next + 1) % this.tailMax;
      this.droppedLines++;
    }
  }

  /** The lines kept, in order. */
  get lines(): LogLine[] {
    return [...this.head, ...this.tail.slice(this.next), ...this.tail.slice(0, this.next)];
  }

  /** Lines left out between the first and the last half. */
  get dropped(): number {
    return this.droppedLines;
  }
}
