// McpAuthCard: shown while the latest job waits on mcp_auth_required (P2.14). It names each MCP server of the
// task's workspace that needs a token (none saved, refused, or unreadable here), offers the sign-in of an HTTP one
// (McpSignIn) and saves a pasted token from a password field; main then queues the parked job again (P2.16). The
// token is sent once and never comes back.
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { McpServerView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { serversWaitingForToken } from '../store/mcp-slice';
import { useAppStore } from '../store/store';
import { McpSignIn } from './McpSignIn';

interface Props {
  workspacePath: string;
  /** The parked job: the servers are looked up again each time it parks. */
  jobId: string;
  parkedAt: string;
}

export function McpAuthCard({ workspacePath, jobId, parkedAt }: Props) {
  const load = useAppStore((s) => s.loadMcpServers);
  const listed = useAppStore((s) => (s.mcpServers?.workspacePath === workspacePath ? s.mcpServers : null));
  const state = useAppStore((s) => s.mcpServersLoad);
  const loadError = useAppStore((s) => s.mcpServersError);
  const t = useT();

  // biome-ignore lint/correctness/useExhaustiveDependencies: jobId and parkedAt say when to look again
  useEffect(() => {
    void load(workspacePath);
  }, [load, workspacePath, jobId, parkedAt]);

  const waiting = listed ? serversWaitingForToken(listed.servers) : [];
  let body: ReactNode;
  if (!listed) {
    body =
      state === 'error' ? (
        <p className="text-error" role="alert">
          {t('mcpAuth.loadError', { error: loadError ?? '' })}
        </p>
      ) : (
        <p>{t('mcpAuth.loading')}</p>
      );
  } else if (listed.error) {
    body = (
      <p className="text-error" role="alert" data-testid="mcp-auth-config-error">
        {listed.error}
      </p>
    );
  } else if (waiting.length === 0) {
    body = <p data-testid="mcp-auth-none">{t('mcpAuth.none')}</p>;
  } else {
    body = waiting.map((server) => <ServerToken key={server.name} server={server} workspacePath={workspacePath} />);
  }

  return (
    <section className="approval-card" data-testid="mcp-auth-card" aria-label={t('mcpAuth.needed')}>
      <header className="approval-header">
        <span className="approval-kind">{t('mcpAuth.needed')}</span>
      </header>
      {body}
      <div className="field-hint">{t('mcpAuth.hint')}</div>
    </section>
  );
}

function ServerToken({ server, workspacePath }: { server: McpServerView; workspacePath: string }) {
  const save = useAppStore((s) => s.saveMcpToken);
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const why =
    server.token === 'rejected'
      ? 'mcpAuth.rejected'
      : server.token === 'unreadable'
        ? 'mcpAuth.unreadable'
        : 'mcpAuth.missing';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = await save({ workspacePath, server: server.name, token: token.trim() });
    setBusy(false);
    if (outcome.ok) setToken('');
    else setError(`${outcome.error.issueFor('token') ?? outcome.error.message} (${outcome.error.code})`);
  }

  return (
    <section
      data-testid="mcp-auth-server"
      data-server={server.name}
      aria-label={t('mcpAuth.label', { server: server.name })}
    >
      <div className="approval-reason" data-testid="mcp-auth-why">
        {t(why, { server: server.name })}
      </div>
      {server.transport === 'stdio' ? null : (
        <>
          <McpSignIn server={server} workspacePath={workspacePath} />
          <p className="field-hint">{t('mcpSignIn.orToken')}</p>
        </>
      )}
      {/* Its own form beside the sign-in's: forms do not nest. */}
      <form onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>{t('mcpAuth.token')}</span>
          <input
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder={t('mcpAuth.placeholder')}
            data-testid="mcp-auth-token"
          />
        </label>
        <div className="approval-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || token.trim() === ''}
            data-testid="mcp-auth-save"
          >
            {busy ? t('mcpAuth.saving') : t('mcpAuth.save')}
          </button>
        </div>
        {error ? (
          <p className="text-error approval-error" role="alert" data-testid="mcp-auth-error">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
