// The `never` check at the end of every exhaustive switch over a union: a value the types say cannot exist throws.
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
