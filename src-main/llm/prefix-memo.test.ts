// The memo of a growing list maps each new item once, and whatever the caller did to its list in between — appended
// in place, replaced an item, cut it short, handed a copy — gives what mapping the whole list gives.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test-support/prng';
import { PrefixMemo } from './prefix-memo';

interface Item {
  n: number;
}

describe('PrefixMemo', () => {
  it('maps only what is new, and always what mapping the whole list would give (300 seeded edit sequences)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(seed);
      let mapped = 0;
      const memo = new PrefixMemo<Item, string>((item, i) => {
        mapped++;
        return `${i}:${item.n}`;
      });
      let list: Item[] = [{ n: 0 }];
      const key = {};
      for (let step = 0; step < 30; step++) {
        const r = random();
        const before = mapped;
        if (r < 0.6) list.push({ n: step });
        else if (r < 0.75 && list.length > 1) list[1 + Math.floor(random() * (list.length - 1))] = { n: -step };
        else if (r < 0.85) list = list.slice(0, 1 + Math.floor(random() * list.length));
        else list = [...list, { n: step }];
        const out = memo.apply(key, list);
        expect(out).toEqual(list.map((item, i) => `${i}:${item.n}`));
        expect(mapped - before).toBeLessThanOrEqual(list.length);
      }
    }
  });

  it('a list appended to in place maps its new item only; each call returns a new array', () => {
    let mapped = 0;
    const memo = new PrefixMemo<Item, number>((item) => {
      mapped++;
      return item.n * 2;
    });
    const list = [{ n: 1 }, { n: 2 }];
    const first = memo.apply(list, list);
    list.push({ n: 3 });
    const second = memo.apply(list, list);
    expect(second).toEqual([2, 4, 6]);
    expect(mapped).toBe(3);
    expect(first).toEqual([2, 4]);
    expect(second).not.toBe(first);
  });
});
