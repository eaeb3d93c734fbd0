// A labelled input of a Settings form with its error right under it, tied to it for screen readers.
import { type ReactNode, useId } from 'react';

export interface FieldProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface Props {
  label: string;
  error: string | undefined;
  testId: string;
  hint?: string;
  children(props: FieldProps): ReactNode;
}

export function FormField({ label, error, testId, hint, children }: Props) {
  const id = useId();
  return (
    <div className="field form-field">
      <label htmlFor={id}>
        <span>{label}</span>
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
      })}
      {hint ? <p className="field-hint">{hint}</p> : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
