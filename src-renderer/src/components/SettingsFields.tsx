// The pieces the Settings sections share: a labelled checkbox, and the row with a section's Save button.
import type { ReactNode } from 'react';

interface CheckFieldProps {
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}

export function CheckField({ checked, onChange, disabled, testId, children }: CheckFieldProps) {
  return (
    <label className="field-check">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      {children}
    </label>
  );
}

export function SaveActions({
  busy,
  onSave,
  testId,
  label,
}: {
  busy: boolean;
  onSave(): void;
  testId: string;
  label: string;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" disabled={busy} onClick={onSave} data-testid={testId}>
        {label}
      </button>
    </div>
  );
}
