// The card of what an MCP server asks the person while its tool call waits (the job waits in place, not parked: see
// src-main/mcp/person-prompts.ts). A form (elicitation): the server's message and its flat fields — text, number,
// yes/no, a choice, several choices — sent with "Send answer", or "Decline" / "Not now" (cancel); the backend checks
// the answer against the fields and a refusal names the field on the card. Sampling: what the server would send to the
// task's model, "Allow once" or "Deny" (A / D on the focused card, as approvals). Everything the server wrote shows
// through the untrusted-text renderer; the card says until when the server waits.
import { type FormEvent, useMemo, useState } from 'react';
import type { McpPrompt, McpPromptField } from '../../../src-shared/contract';
import { useCardAction } from '../hooks/useCardAction';
import { useLocale, useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton } from './ApprovalCard';
import { formatTime } from './format';
import { UntrustedLine, UntrustedText } from './UntrustedText';

type Value = string | number | boolean | string[];

export function McpPromptCard({ prompt }: { prompt: McpPrompt }) {
  return prompt.kind === 'elicit' ? <ElicitCard prompt={prompt} /> : <SampleCard prompt={prompt} />;
}

function Waiting({ until }: { until: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <p className="approval-reason" data-testid="mcp-prompt-waiting">
      {t('mcpPrompt.waiting', { time: formatTime(until, locale) })}
    </p>
  );
}

function SampleCard({ prompt }: { prompt: Extract<McpPrompt, { kind: 'sample' }> }) {
  const answer = useAppStore((s) => s.answerMcpPrompt);
  const { busy, error, run } = useCardAction();
  const t = useT();
  const choose = (action: 'accept' | 'decline') =>
    run(() => answer({ taskId: prompt.taskId, promptId: prompt.id, action }));
  return (
    <ApprovalCard
      testId="mcp-prompt"
      requestId={prompt.id}
      label={t('mcpPrompt.sampleWants', { server: prompt.server, profile: prompt.profile })}
      wants={t('mcpPrompt.sampleWants', { server: prompt.server, profile: prompt.profile })}
      error={error}
      actions={
        <>
          <DecisionButton action="approve" busy={busy} onClick={() => void choose('accept')} testId="mcp-prompt-allow">
            {t('mcpPrompt.allow')}
          </DecisionButton>
          <DecisionButton action="deny" busy={busy} onClick={() => void choose('decline')} testId="mcp-prompt-deny">
            {t('mcpPrompt.deny')}
          </DecisionButton>
        </>
      }
    >
      <p className="approval-reason">{t('mcpPrompt.messages')}</p>
      <pre className="approval-summary" data-testid="mcp-prompt-summary">
        <UntrustedText text={prompt.summary} />
      </pre>
      <p className="approval-reason">{t('mcpPrompt.maxTokens', { count: prompt.maxTokens })}</p>
      <Waiting until={prompt.expiresAt} />
    </ApprovalCard>
  );
}

/** The form's starting values: each field's default, else empty. */
function initialValues(fields: readonly McpPromptField[]): Record<string, Value> {
  const values: Record<string, Value> = {};
  for (const f of fields) {
    if (f.default !== null) values[f.name] = typeof f.default === 'number' ? f.default : f.default;
    else values[f.name] = f.kind === 'boolean' ? false : f.kind === 'multi' ? [] : '';
  }
  return values;
}

/** The values as the answer sends them: numbers as numbers, an empty optional field left out. */
function contentOf(
  fields: readonly McpPromptField[],
  values: Record<string, Value>,
): { ok: true; content: Record<string, Value> } | { ok: false; field: string } {
  const content: Record<string, Value> = {};
  for (const f of fields) {
    const value = values[f.name];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n)) return { ok: false, field: f.title };
      content[f.name] = n;
    } else content[f.name] = value;
  }
  return { ok: true, content };
}

function ElicitCard({ prompt }: { prompt: Extract<McpPrompt, { kind: 'elicit' }> }) {
  const answer = useAppStore((s) => s.answerMcpPrompt);
  const { busy, error, run } = useCardAction();
  const t = useT();
  const [values, setValues] = useState(() => initialValues(prompt.fields));
  const [local, setLocal] = useState<string | null>(null);
  const set = (name: string, value: Value) => setValues((v) => ({ ...v, [name]: value }));
  const send = (action: 'accept' | 'decline' | 'cancel') => {
    setLocal(null);
    if (action !== 'accept') return run(() => answer({ taskId: prompt.taskId, promptId: prompt.id, action }));
    const made = contentOf(prompt.fields, values);
    if (!made.ok) {
      setLocal(t('mcpPrompt.notNumber', { field: made.field }));
      return Promise.resolve();
    }
    return run(() => answer({ taskId: prompt.taskId, promptId: prompt.id, action, content: made.content }));
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send('accept');
  };
  const label = t('mcpPrompt.elicitWants', { server: prompt.server });
  return (
    <section
      className="approval-card"
      tabIndex={-1}
      data-approval-card
      data-testid="mcp-prompt"
      data-request-id={prompt.id}
      aria-label={label}
    >
      <header className="approval-header">
        <span className="approval-kind">{t('mcpPrompt.kind')}</span>
        <span>{label}</span>
      </header>
      <p className="approval-reason" data-testid="mcp-prompt-message">
        <UntrustedText text={prompt.message} />
      </p>
      <form onSubmit={onSubmit} className="mcp-prompt-form" data-testid="mcp-prompt-form">
        {prompt.fields.map((f) => (
          <FieldInput key={f.name} field={f} value={values[f.name]} onChange={(v) => set(f.name, v)} busy={busy} />
        ))}
        <Waiting until={prompt.expiresAt} />
        <div className="approval-actions" data-testid="approval-actions">
          <button type="submit" className="button button-primary" disabled={busy} data-testid="mcp-prompt-submit">
            {t('mcpPrompt.submit')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => void send('decline')}
            data-card-action="deny"
            data-testid="mcp-prompt-decline"
          >
            {t('mcpPrompt.decline')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void send('cancel')}
            data-testid="mcp-prompt-cancel"
          >
            {t('mcpPrompt.cancel')}
          </button>
        </div>
      </form>
      {error || local ? (
        <p className="text-error approval-error" role="alert" data-testid="request-error">
          {local ?? error}
        </p>
      ) : null}
    </section>
  );
}

interface FieldProps {
  field: McpPromptField;
  value: Value | undefined;
  onChange(value: Value): void;
  busy: boolean;
}

function FieldInput({ field, value, onChange, busy }: FieldProps) {
  const t = useT();
  const id = useMemo(() => `mcp-field-${field.name}-${Math.random().toString(36).slice(2, 8)}`, [field.name]);
  const title = (
    <label htmlFor={id} className="mcp-prompt-label">
      <UntrustedLine text={field.title} />
      {field.required ? <span className="mcp-prompt-required"> ({t('mcpPrompt.required')})</span> : null}
    </label>
  );
  const description = field.description ? (
    <span className="mcp-prompt-description">
      <UntrustedLine text={field.description} />
    </span>
  ) : null;
  const common = { id, disabled: busy, 'data-testid': `mcp-field-${field.name}`, 'data-field': field.name };
  let input: React.ReactNode;
  switch (field.kind) {
    case 'boolean':
      input = (
        <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      );
      break;
    case 'choice':
      input = (
        <select {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
          <option value="">{t('mcpPrompt.choose')}</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.title}
            </option>
          ))}
        </select>
      );
      break;
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      input = (
        <fieldset {...common} className="mcp-prompt-options">
          {field.options.map((o) => (
            <label key={o.value} className="mcp-prompt-option">
              <input
                type="checkbox"
                disabled={busy}
                checked={chosen.includes(o.value)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))
                }
              />
              <UntrustedLine text={o.title} />
            </label>
          ))}
        </fieldset>
      );
      break;
    }
    case 'number':
    case 'integer':
      input = (
        <input
          {...common}
          type="number"
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.min ?? undefined}
          max={field.max ?? undefined}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default:
      input = (
        <input
          {...common}
          type={
            field.format === 'email'
              ? 'email'
              : field.format === 'uri'
                ? 'url'
                : field.format === 'date'
                  ? 'date'
                  : 'text'
          }
          maxLength={field.max ?? 10_000}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className="mcp-prompt-field">
      {title}
      {input}
      {description}
    </div>
  );
}
