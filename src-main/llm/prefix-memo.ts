// Maps a list that grows at its end from request to request — a conversation, its tool specs — reusing what the last
// mapping of the same list made for its prefix that is still the same objects: the request at turn N maps its new
// messages and compares the others, instead of looking each one up again (a hash lookup per message, every request,
// is what a long job's requests spent most on here, with the caches cold after the model's wait).

interface Mapped<T, U> {
  /** The items as they were mapped (a copy: the caller may append to its list in place). */
  from: readonly T[];
  to: readonly U[];
}

export class PrefixMemo<T, U> {
  private readonly last = new WeakMap<object, Mapped<T, U>>();

  constructor(private readonly map: (item: T, index: number) => U) {}

  /** A new array of `items` mapped; `key` names the list from one request to the next (the list, its first item). */
  apply(key: object, items: readonly T[]): U[] {
    const last = this.last.get(key);
    let same = 0;
    if (last) {
      const n = Math.min(last.from.length, items.length);
      while (same < n && last.from[same] === items[same]) same++;
    }
    const to = last ? last.to.slice(0, same) : [];
    for (let i = same; i < items.length; i++) to.push(this.map(items[i] as T, i));
    this.last.set(key, { from: items.slice(), to });
    return to;
  }
}
