// `fn` remembered for its latest `max` arguments, the least recently used forgotten first: for pure work over
// strings that the UI repeats (a Markdown block shown again, a code block highlighted again).
export function lastUsed<A, R>(fn: (arg: A) => R, max: number): (arg: A) => R {
  const cache = new Map<A, R>();
  return (arg) => {
    if (cache.has(arg)) {
      const hit = cache.get(arg) as R;
      cache.delete(arg);
      cache.set(arg, hit);
      return hit;
    }
    const value = fn(arg);
    cache.set(arg, value);
    if (cache.size > max) cache.delete(cache.keys().next().value as A);
    return value;
  };
}
