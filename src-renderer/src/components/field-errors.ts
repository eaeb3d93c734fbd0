// A form's errors by field, keyed by the dotted path of the issue (`env.1.name`): from the form's own zod check before
// sending, or from main's 400 (whose issue paths may be one dotted string, `server.args.0`, and start at the input).
export type FieldErrors = Record<string, string>;

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The first message per field; `prefix` (`server.`) is taken off the front of each key. */
export function fieldErrors(issues: readonly Issue[], prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    const field = key.startsWith(prefix) ? key.slice(prefix.length) : key;
    out[field] ??= issue.message;
  }
  return out;
}

/** Main's 400 placed on a form's own fields: the message of each field it names (none: it names none of them). */
export function errorsOn<F extends string>(
  error: { issueFor(field: string): string | undefined },
  fields: readonly F[],
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const message = error.issueFor(field);
    if (message) out[field] = message;
  }
  return out;
}
