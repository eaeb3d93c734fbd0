// What a save in Settings came to: a green or a red line, with `data-ok` for the tests.
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
