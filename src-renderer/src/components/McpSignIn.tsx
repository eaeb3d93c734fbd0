// McpSignIn: the OAuth sign-in to an HTTP MCP server, on the McpAuthCard and in Settings. "Sign in" opens the
// server's sign-in page in the person's browser; while main waits for the browser to come back, the control says so
// and takes the address the browser ended on, for a host on another computer whose loopback page cannot load there.
import { type FormEvent, useState } from 'react';
import type { McpServerView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';

export function McpSignIn({ server, workspacePath }: { server: McpServerView; workspacePath: string }) {
  const signIn = useAppStore((s) => s.signInToMcp);
  const finish = useAppStore((s) => s.finishMcpSignIn);
  const [address, setAddress] = useState('');
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const t = useT();

  function start() {
    setStarting(true);
    setError(null);
    void signIn(workspacePath, server.name).then((failure) => {
      setStarting(false);
      setError(failure);
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(await finish({ workspacePath, server: server.name, address: address.trim() }));
  }

  return (
    <div className="mcp-sign-in" data-testid="mcp-sign-in" data-server={server.name}>
      {server.signingIn ? (
        <form onSubmit={(e) => void submit(e)} aria-label={t('mcpSignIn.finishLabel', { server: server.name })}>
          <p role="status" data-testid="mcp-sign-in-waiting">
            {t('mcpSignIn.waiting', { server: server.name })}
          </p>
          <label className="field">
            <span>{t('mcpSignIn.address')}</span>
            <input
              type="url"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-testid="mcp-sign-in-address"
            />
          </label>
          <div className="approval-actions">
            <button type="submit" className="button" disabled={address.trim() === ''} data-testid="mcp-sign-in-finish">
              {t('mcpSignIn.finish')}
            </button>
            <button type="button" className="button" onClick={start} data-testid="mcp-sign-in-again">
              {t('mcpSignIn.again')}
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="button button-primary"
          disabled={starting}
          onClick={start}
          data-testid="mcp-sign-in-start"
        >
          {server.signedIn ? t('mcpSignIn.again') : t('mcpSignIn.start')}
        </button>
      )}
      <ErrorNotice error={error} testId="mcp-sign-in-error" />
    </div>
  );
}
