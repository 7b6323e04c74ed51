// SlotList (rig/client/slotList.ts): the exchanges in flight kept without a Set. Members come and go
// in any order; the list holds exactly those still in it, each knows its slot, and one that left
// is held nowhere (its slot is -1 and the array is no longer than the members).
import { expect, it } from 'vitest';
import { SlotList } from '../rig/client/slotList.ts';

interface Member {
  id: number;
  slot: number;
}

it('holds exactly the members still in it, whatever the order they leave in', () => {
  const list = new SlotList<'slot', Member>('slot');
  const model = new Set<Member>();
  const members = Array.from({ length: 50 }, (_, id) => ({ id, slot: -1 }));
  // A fixed interleaving of joins and departures (no randomness: the test is deterministic).
  for (let step = 0; step < 400; step++) {
    const m = members[(step * 37) % members.length]!;
    if (model.has(m)) {
      list.delete(m);
      model.delete(m);
      expect(m.slot).toBe(-1);
    } else {
      list.add(m);
      model.add(m);
    }
    const now = list.toArray();
    expect(now.map((x) => x.id).sort((a, b) => a - b)).toEqual([...model].map((x) => x.id).sort((a, b) => a - b));
    expect(list.size).toBe(model.size);
    now.forEach((x, i) => expect(x.slot).toBe(i));
  }
});

it('ignores the removal of one that is not a member, or already left', () => {
  const list = new SlotList<'slot', Member>('slot');
  const a = { id: 1, slot: -1 };
  const b = { id: 2, slot: -1 };
  list.add(a);
  list.delete(b);
  list.delete(a);
  list.delete(a);
  expect(list.size).toBe(0);
  list.add(b);
  expect(list.toArray()).toEqual([b]);
});

it('gives a copy to walk: members may leave meanwhile', () => {
  const list = new SlotList<'slot', Member>('slot');
  const all = [0, 1, 2, 3].map((id) => ({ id, slot: -1 }));
  all.forEach((m) => list.add(m));
  const seen: number[] = [];
  for (const m of list.toArray()) {
    seen.push(m.id);
    list.delete(m);
  }
  expect(seen).toEqual([0, 1, 2, 3]);
  expect(list.size).toBe(0);
});
