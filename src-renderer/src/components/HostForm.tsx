// Settings → Hosts' form (inside Electron): this computer, a host over TLS (address, token, and for a self-signed host
// its certificate file or SPKI pin), or one through SSH (host, port, user, the agent or a key file, the bridge's port,
// the token). Main checks the host before anything is saved; its refusal names the field, shown under it. Once shown,
// the window reloads, so every view reads the new host from the start.
import { type FormEvent, useState } from 'react';
import type { HostChoiceInput, HostKind } from '../../../src-shared/hosts';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { FormField } from './FormField';
import { errorsOn } from './field-errors';
import { ErrorNotice } from './OutcomeNotice';

const FIELDS = [
  'url',
  'token',
  'certFile',
  'spkiPin',
  'host',
  'port',
  'user',
  'auth',
  'keyFile',
  'remotePort',
] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Exclude<Field, 'auth'>, string> & { kind: HostKind; auth: 'agent' | 'key' };

const EMPTY: Draft = {
  kind: 'tls',
  url: '',
  token: '',
  certFile: '',
  spkiPin: '',
  host: '',
  port: '22',
  user: '',
  auth: 'agent',
  keyFile: '',
  remotePort: '',
};

/** What main is asked to show: the fields of the chosen kind, an optional field left out when empty. */
function choiceOf(d: Draft): HostChoiceInput {
  const optional = (key: 'certFile' | 'spkiPin' | 'keyFile') => (d[key].trim() ? { [key]: d[key] } : {});
  switch (d.kind) {
    case 'local':
      return { kind: 'local' };
    case 'tls':
      return { kind: 'tls', url: d.url, token: d.token, ...optional('certFile'), ...optional('spkiPin') };
    case 'ssh':
      return {
        kind: 'ssh',
        host: d.host,
        port: d.port,
        user: d.user,
        auth: d.auth,
        ...(d.auth === 'key' ? optional('keyFile') : {}),
        remotePort: d.remotePort,
        token: d.token,
      };
    default: {
      const never: never = d.kind;
      throw new Error(`unknown host kind ${String(never)}`);
    }
  }
}

export function HostForm() {
  const t = useT();
  const choose = useAppStore((s) => s.chooseHost);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const error = await choose(choiceOf(draft));
    setBusy(false);
    if (!error) {
      window.location.reload();
      return;
    }
    const onFields = errorsOn(error, FIELDS);
    setErrors(onFields);
    setFailure(t('hosts.failed', { error: error.message }));
  };
  const text = (field: Exclude<Field, 'auth'>, label: string, options: { hint?: string; secret?: boolean } = {}) => (
    <FormField label={label} error={errors[field]} testId={`host-${field}`} hint={options.hint}>
      {(props) => (
        <input
          {...props}
          type={options.secret ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          value={draft[field]}
          onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
          data-testid={`host-${field}`}
        />
      )}
    </FormField>
  );

  return (
    <form className="host-form" onSubmit={submit} data-testid="host-form" noValidate>
      <fieldset className="host-kinds">
        <legend>{t('hosts.kind')}</legend>
        {(['local', 'tls', 'ssh'] as const).map((kind) => (
          <label key={kind} className="host-kind">
            <input
              type="radio"
              name="host-kind"
              checked={draft.kind === kind}
              onChange={() => setDraft({ ...draft, kind })}
              data-testid={`host-kind-${kind}`}
            />
            {t(`hosts.kind.${kind}`)}
          </label>
        ))}
      </fieldset>
      {draft.kind === 'tls' ? (
        <>
          {text('url', t('hosts.url'), { hint: t('hosts.url.hint') })}
          {text('token', t('hosts.token'), { hint: t('hosts.token.hint'), secret: true })}
          {text('certFile', t('hosts.certFile'), { hint: t('hosts.certFile.hint') })}
          {text('spkiPin', t('hosts.spkiPin'))}
        </>
      ) : null}
      {draft.kind === 'ssh' ? (
        <>
          {text('host', t('hosts.sshHost'))}
          {text('port', t('hosts.sshPort'))}
          {text('user', t('hosts.sshUser'))}
          <fieldset className="host-kinds">
            <legend>{t('hosts.auth')}</legend>
            {(['agent', 'key'] as const).map((auth) => (
              <label key={auth} className="host-kind">
                <input
                  type="radio"
                  name="host-auth"
                  checked={draft.auth === auth}
                  onChange={() => setDraft({ ...draft, auth })}
                  data-testid={`host-auth-${auth}`}
                />
                {t(`hosts.auth.${auth}`)}
              </label>
            ))}
          </fieldset>
          {draft.auth === 'key' ? text('keyFile', t('hosts.keyFile'), { hint: t('hosts.keyFile.hint') }) : null}
          {text('remotePort', t('hosts.remotePort'), { hint: t('hosts.remotePort.hint') })}
          {text('token', t('hosts.token'), { hint: t('hosts.token.hint'), secret: true })}
        </>
      ) : null}
      <ErrorNotice error={failure} testId="host-error" />
      <button type="submit" className="button button-primary" disabled={busy} data-testid="host-choose">
        {busy ? t('hosts.checking') : t('hosts.choose')}
      </button>
    </form>
  );
}
