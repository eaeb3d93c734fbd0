// The read-only tool cache of one job run (P4.36): an identical read-only call (name + canonical JSON arguments) is
// answered from the cache until any call that may change something (write, edit, run_command, package install) runs.

/** JSON with object keys sorted at every depth, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one key. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The identity of a call: its name and canonical arguments (raw text when they are not JSON). */
export function callKey(name: string, rawArguments: string): string {
  let args: string;
  try {
    args = canonicalJson(rawArguments.trim() === '' ? {} : JSON.parse(rawArguments));
  } catch {
    args = rawArguments;
  }
  return `${name}\u0000${args}`;
}

/** One job run's cache (a delegated sub-agent shares its parent's, so its writes invalidate the parent's reads too). */
export class ToolCache {
  private readonly entries = new Map<string, string>();

  /** The cached result of an identical read-only call (`key`: its callKey), or undefined. */
  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  /** Keeps the result of a read-only call that succeeded. */
  set(key: string, content: string): void {
    this.entries.set(key, content);
  }

  /** Forgets everything: a call that may have changed the workspace is about to run. */
  invalidate(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
