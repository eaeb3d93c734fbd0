// What "Approve for this task" grants, chosen on the card: exactly what it shows (the default), a prefix rule that
// covers the command, or — in its own words — any call of the tool. The choice goes with the decision as `grant`.
import { useState } from 'react';
import type { ToolRequest } from '../../../src-shared/entities';
import type { GrantChoice as Choice } from '../../../src-shared/grants';
import { useT } from '../hooks/useT';
import { grantWords } from './grant-words';

const encode = (c: Choice) => (c.kind === 'prefix' ? `prefix:${c.rule}` : c.kind);
const decode = (v: string): Choice =>
  v.startsWith('prefix:')
    ? { kind: 'prefix', rule: v.slice('prefix:'.length) }
    : { kind: v === 'tool' ? 'tool' : 'exact' };

export function GrantChoice({
  request,
  busy,
  onApprove,
}: {
  request: ToolRequest;
  busy: boolean;
  onApprove(grant: Choice): void;
}) {
  const t = useT();
  const [choice, setChoice] = useState<Choice>({ kind: 'exact' });
  const options = request.grantOptions;
  const choices: Choice[] = [
    { kind: 'exact' },
    ...(options?.prefixes ?? []).map((rule): Choice => ({ kind: 'prefix', rule })),
    { kind: 'tool' },
  ];
  const words = (c: Choice) =>
    grantWords(t, {
      tool: request.tool,
      kind: c.kind,
      target: options?.target ?? null,
      rule: c.kind === 'prefix' ? c.rule : null,
    });
  return (
    <span className="grant-choice">
      <select
        className="input"
        aria-label={t('grant.choiceLabel')}
        value={encode(choice)}
        disabled={busy}
        onChange={(e) => setChoice(decode(e.currentTarget.value))}
        data-testid="grant-choice"
        data-kind={choice.kind}
      >
        {choices.map((c) => (
          <option key={encode(c)} value={encode(c)}>
            {words(c)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button"
        disabled={busy}
        title={words(choice)}
        onClick={() => onApprove(choice)}
        data-testid="approve-task"
      >
        {t('approval.approveTask')}
      </button>
    </span>
  );
}
