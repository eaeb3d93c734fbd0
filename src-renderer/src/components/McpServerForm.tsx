// Settings' "Add MCP server": stdio (name, command, arguments one per line, environment rows, folders it may read) or
// HTTP (name, URL). Checked with the contract's own schema before it is sent, and by main again (which also runs the
// loader on the result); each error shows under the field it names. An env value marked secret is typed in a
// password field and kept sealed by main as the server's token, never written to the file.
import { type FormEvent, useState } from 'react';
import { McpServerDraft } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { FormField } from './FormField';
import { type FieldErrors, fieldErrors } from './field-errors';
import { ErrorNotice } from './OutcomeNotice';

interface EnvRow {
  name: string;
  value: string;
  secret: boolean;
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

export function McpServerForm({ onDone }: { onDone(): void }) {
  const add = useAppStore((s) => s.addMcpServer);
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [name, setName] = useState('');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState<EnvRow[]>([]);
  const [readable, setReadable] = useState('');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();

  const draft = (): McpServerDraft =>
    transport === 'http'
      ? { transport, name, url }
      : { transport, name, command, args: lines(args), env, readable: lines(readable) };

  /** Main names an env entry of the file by its variable (`env.API_KEY`): the row that has it. */
  const byRow = (found: FieldErrors): FieldErrors =>
    Object.fromEntries(
      Object.entries(found).map(([field, message]) => {
        const variable = /^env\.([A-Za-z_]\w*)$/.exec(field)?.[1];
        const row = variable === undefined ? -1 : env.findIndex((e) => e.name === variable);
        return [row >= 0 ? `env.${row}.value` : field, message];
      }),
    );

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const checked = McpServerDraft.safeParse(draft());
    if (!checked.success) {
      setErrors(fieldErrors(checked.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    const failure = await add(draft());
    setBusy(false);
    if (!failure) return onDone();
    const found = byRow(fieldErrors(failure.issues, 'server.'));
    if (Object.keys(found).length > 0 && failure.code === 'invalid_input') setErrors(found);
    else setFormError(failure.message);
  }

  const setRow = (i: number, row: Partial<EnvRow>) => setEnv(env.map((e, j) => (j === i ? { ...e, ...row } : e)));
  const argError = Object.entries(errors).find(([k]) => k.startsWith('args.'));
  const readableError = Object.entries(errors).find(([k]) => k.startsWith('readable.'));
  const lineOf = (entry: [string, string] | undefined) =>
    entry ? t('mcpAdd.lineError', { line: Number(entry[0].split('.')[1]) + 1, error: entry[1] }) : undefined;

  return (
    <form className="mcp-add-form" onSubmit={(e) => void submit(e)} data-testid="mcp-add-form" noValidate>
      <h4>{t('mcpAdd.title')}</h4>
      <fieldset className="mcp-add-transport">
        <legend>{t('mcpAdd.transport')}</legend>
        {(['stdio', 'http'] as const).map((kind) => (
          <label key={kind} className="field-check">
            <input
              type="radio"
              name="mcp-add-transport"
              checked={transport === kind}
              onChange={() => setTransport(kind)}
              data-testid={`mcp-add-transport-${kind}`}
            />
            {t(`mcpAdd.transport.${kind}`)}
          </label>
        ))}
      </fieldset>
      <FormField label={t('mcpAdd.name')} error={errors.name} testId="mcp-add-name" hint={t('mcpAdd.name.hint')}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} data-testid="mcp-add-name" />}
      </FormField>
      {transport === 'http' ? (
        <FormField label={t('mcpAdd.url')} error={errors.url} testId="mcp-add-url">
          {(p) => (
            <input
              {...p}
              value={url}
              placeholder="https://…/mcp"
              onChange={(e) => setUrl(e.target.value)}
              data-testid="mcp-add-url"
            />
          )}
        </FormField>
      ) : (
        <>
          <FormField
            label={t('mcpAdd.command')}
            error={errors.command}
            testId="mcp-add-command"
            hint={t('mcpAdd.command.hint')}
          >
            {(p) => (
              <input
                {...p}
                value={command}
                onChange={(e) => setCommand(e.target.value)}
                data-testid="mcp-add-command"
              />
            )}
          </FormField>
          <FormField
            label={t('mcpAdd.args')}
            error={lineOf(argError)}
            testId="mcp-add-args"
            hint={t('mcpAdd.args.hint')}
          >
            {(p) => (
              <textarea
                {...p}
                rows={3}
                spellCheck={false}
                value={args}
                onChange={(e) => setArgs(e.target.value)}
                data-testid="mcp-add-args"
              />
            )}
          </FormField>
          <fieldset className="mcp-add-env" data-testid="mcp-add-env">
            <legend>{t('mcpAdd.env')}</legend>
            {env.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while being typed
              <div key={i} className="mcp-add-env-row" data-testid="mcp-add-env-row">
                <FormField label={t('mcpAdd.env.name')} error={errors[`env.${i}.name`]} testId="mcp-add-env-name">
                  {(p) => (
                    <input
                      {...p}
                      value={row.name}
                      onChange={(e) => setRow(i, { name: e.target.value })}
                      data-testid="mcp-add-env-name"
                    />
                  )}
                </FormField>
                <FormField label={t('mcpAdd.env.value')} error={errors[`env.${i}.value`]} testId="mcp-add-env-value">
                  {(p) => (
                    <input
                      {...p}
                      type={row.secret ? 'password' : 'text'}
                      autoComplete="off"
                      value={row.value}
                      onChange={(e) => setRow(i, { value: e.target.value })}
                      data-testid="mcp-add-env-value"
                    />
                  )}
                </FormField>
                <label className="field-check">
                  <input
                    type="checkbox"
                    checked={row.secret}
                    onChange={(e) => setRow(i, { secret: e.target.checked })}
                    aria-describedby={errors[`env.${i}.secret`] ? `mcp-env-secret-${i}` : undefined}
                    data-testid="mcp-add-env-secret"
                  />
                  {t('mcpAdd.env.secret')}
                </label>
                <button
                  type="button"
                  className="button"
                  onClick={() => setEnv(env.filter((_, j) => j !== i))}
                  aria-label={t('mcpAdd.env.removeLabel', { name: row.name || String(i + 1) })}
                  data-testid="mcp-add-env-remove"
                >
                  {t('mcpAdd.env.remove')}
                </button>
                {errors[`env.${i}.secret`] ? (
                  <p className="field-error" id={`mcp-env-secret-${i}`} data-testid="mcp-add-env-secret-error">
                    {errors[`env.${i}.secret`]}
                  </p>
                ) : null}
              </div>
            ))}
            <p className="field-hint">{t('mcpAdd.env.hint')}</p>
            <button
              type="button"
              className="button"
              onClick={() => setEnv([...env, { name: '', value: '', secret: false }])}
              data-testid="mcp-add-env-add"
            >
              {t('mcpAdd.env.add')}
            </button>
          </fieldset>
          <details className="mcp-add-more">
            <summary>{t('mcpAdd.more')}</summary>
            <FormField
              label={t('mcpAdd.readable')}
              error={lineOf(readableError)}
              testId="mcp-add-readable"
              hint={t('mcpAdd.readable.hint')}
            >
              {(p) => (
                <textarea
                  {...p}
                  rows={2}
                  spellCheck={false}
                  value={readable}
                  onChange={(e) => setReadable(e.target.value)}
                  data-testid="mcp-add-readable"
                />
              )}
            </FormField>
          </details>
        </>
      )}
      <ErrorNotice error={formError} testId="mcp-add-error" />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone} data-testid="mcp-add-cancel">
          {t('mcpAdd.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={busy} data-testid="mcp-add-submit">
          {busy ? t('mcpAdd.adding') : t('mcpAdd.submit')}
        </button>
      </div>
    </form>
  );
}
