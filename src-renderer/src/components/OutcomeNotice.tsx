// The notices of a form: what a save came to (a green or a red line, with `data-ok` for the tests), and an error.
export interface Outcome {
  ok: boolean;
  text: string;
}

export function OutcomeNotice({ outcome, testId }: { outcome: Outcome | null; testId: string }) {
  if (!outcome) return null;
  return (
    <p className={`notice ${outcome.ok ? 'notice-ok' : 'notice-error'}`} data-testid={testId} data-ok={outcome.ok}>
      {outcome.text}
    </p>
  );
}

/** A red line saying what went wrong; nothing when nothing did. */
export function ErrorNotice({ error, testId }: { error: string | null | undefined; testId: string }) {
  if (!error) return null;
  return (
    <p className="notice notice-error" data-testid={testId}>
      {error}
    </p>
  );
}
