// Members that come and go by the thousand a second (the exchanges in flight of a transport, or
// under one caller signal: unaryExchange.ts), kept in an array: each member holds its slot in one of
// its own number fields, a removal moves the last member into the freed slot, and the array's end
// is popped, so no slot keeps a member that left. Why not a Set: a Set that many short-lived
// members pass through rehashes into a new table now and then, and the old table keeps a link to
// the new one and the entries it had; once such a table reaches the old generation, every later
// table and the members in them survive the young generation's collections, which copy them.

export class SlotList<K extends string, T extends Record<K, number>> {
  private readonly items: T[] = [];

  /** `key`: the member's field that holds its slot here (-1 when it is not a member). */
  constructor(private readonly key: K) {}

  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    (item as Record<K, number>)[this.key] = this.items.length;
    this.items.push(item);
  }

  delete(item: T): void {
    const slot = item[this.key];
    if (slot < 0 || this.items[slot] !== item) return;
    const last = this.items.pop()!;
    if (last !== item) {
      this.items[slot] = last;
      (last as Record<K, number>)[this.key] = slot;
    }
    (item as Record<K, number>)[this.key] = -1;
  }

  /** The members now, as a copy: they may leave while the caller walks it. */
  toArray(): T[] {
    return this.items.slice();
  }
}
