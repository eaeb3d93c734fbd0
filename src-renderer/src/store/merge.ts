// Pure list helpers the store uses to fold responses and pushed events together without duplicates.
interface Keyed {
  id: string;
  createdAt: string;
}

/** `list` with `item` replacing the entry of the same id, or added; ordered by createdAt (oldest first), stable. */
export function upsertById<T extends Keyed>(list: readonly T[], item: T): T[] {
  const index = list.findIndex((x) => x.id === item.id);
  const next = index === -1 ? [...list, item] : list.map((x, i) => (i === index ? item : x));
  return next.sort(byCreatedAt);
}

/** The union of two lists by id, `fresh` winning unless `pick` says otherwise, ordered by createdAt (oldest first). */
export function mergeById<T extends Keyed>(
  current: readonly T[],
  fresh: readonly T[],
  pick: (known: T, fresh: T) => T = (_known, x) => x,
): T[] {
  const byId = new Map<string, T>();
  for (const x of current) byId.set(x.id, x);
  for (const x of fresh) {
    const known = byId.get(x.id);
    byId.set(x.id, known ? pick(known, x) : x);
  }
  return [...byId.values()].sort(byCreatedAt);
}

export function byCreatedAt(a: Keyed, b: Keyed): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

export function newestFirst(a: Keyed, b: Keyed): number {
  return -byCreatedAt(a, b);
}
