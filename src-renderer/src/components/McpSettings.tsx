// Settings' MCP servers: choose a workspace (a space, or the default workspace), then each server of its
// .maestro/mcp.json (in the version a person accepted) with its transport, whether it is on, how it last did (status,
// its tools, its last error) and its token's state; a switch turns it off or on for the jobs from now on, and "Check
// now" starts it, lists its tools and stops it again. "Add MCP server" opens a form (McpServerForm) whose server is
// written to the file and checked at once; "Remove" takes one out after a second click that confirms it.
import { useState } from 'react';
import type { McpServerView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { McpServerForm } from './McpServerForm';
import { McpSignIn } from './McpSignIn';
import { ErrorNotice } from './OutcomeNotice';
import { CheckField } from './SettingsFields';
import { SettingsWorkspace } from './SettingsWorkspace';

export function McpSettings() {
  const chosen = useAppStore((s) => s.mcpSettingsFor);
  const view = useAppStore((s) => s.mcpSettings);
  const loadState = useAppStore((s) => s.mcpSettingsLoad);
  const loadError = useAppStore((s) => s.mcpSettingsError);
  const load = useAppStore((s) => s.loadMcpSettings);
  const [adding, setAdding] = useState(false);
  const t = useT();

  return (
    <section data-testid="mcp-settings">
      <h3 className="settings-section">{t('settings.mcp')}</h3>
      <p className="field-hint">{t('settings.mcp.about')}</p>
      <SettingsWorkspace
        chosen={chosen}
        onChoose={(folder) => void load(folder)}
        testId="mcp-workspace"
        noneTestId="mcp-no-workspaces"
      />
      <ErrorNotice error={loadError} testId="mcp-load-error" />
      {chosen && loadState === 'loading' ? <p className="field-hint">{t('settings.toolPolicy.loading')}</p> : null}
      {view ? <ErrorNotice error={view.error} testId="mcp-file-error" /> : null}
      {view && !view.error && view.servers.length === 0 ? (
        <p className="field-hint" data-testid="mcp-none">
          {t('settings.mcp.none')}
        </p>
      ) : null}
      {view && view.servers.length > 0 ? (
        <ul className="profile-list">
          {view.servers.map((server) => (
            <McpServerRow key={server.name} server={server} workspacePath={view.workspacePath} />
          ))}
        </ul>
      ) : null}
      {view && !view.error ? (
        adding ? (
          <McpServerForm onDone={() => setAdding(false)} />
        ) : (
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setAdding(true)} data-testid="mcp-add">
              {t('mcpAdd.open')}
            </button>
          </div>
        )
      ) : null}
    </section>
  );
}

function McpServerRow({ server, workspacePath }: { server: McpServerView; workspacePath: string }) {
  const busy = useAppStore((s) => s.mcpSettingsBusy.includes(server.name));
  const switchServer = useAppStore((s) => s.switchMcpServer);
  const check = useAppStore((s) => s.checkMcpServer);
  const remove = useAppStore((s) => s.removeMcpServer);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The switch shows the person's choice at once, until main's answer replaces the row (or a refusal puts it back).
  const [pending, setPending] = useState<boolean | null>(null);
  const t = useT();
  const status = server.enabled ? server.status : 'off';
  return (
    <li
      className="profile-item"
      data-testid="mcp-server"
      data-name={server.name}
      data-status={status}
      data-enabled={server.enabled}
    >
      <div className="profile-head">
        <strong>{server.name}</strong>
        <span className="tag">{server.transport}</span>
        <span className="tag" data-testid="mcp-server-status">
          {t(`settings.mcp.status.${status}`)}
        </span>
      </div>
      <p className="profile-meta" data-testid="mcp-server-tools">
        {server.tools.length > 0
          ? t('settings.mcp.tools', { count: server.tools.length, tools: server.tools.join(', ') })
          : t('settings.mcp.noTools')}
        {server.signedIn
          ? ` · ${t('settings.mcp.signedIn')}`
          : server.takesToken
            ? ` · ${t(`settings.mcp.token.${server.token}`)}`
            : ''}
      </p>
      <ErrorNotice
        error={server.lastError ? t('settings.mcp.lastError', { error: server.lastError }) : null}
        testId="mcp-server-error"
      />
      <div className="profile-actions">
        <CheckField
          checked={pending ?? server.enabled}
          disabled={busy}
          onChange={(on) => {
            setPending(on);
            void switchServer(server.name, on).then((failure) => {
              setPending(null);
              setError(failure);
            });
          }}
          testId="mcp-server-enabled"
        >
          {t('settings.mcp.enabled')}
        </CheckField>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void check(server.name).then(setError)}
          data-testid="mcp-server-check"
        >
          {busy ? t('settings.mcp.checking') : t('settings.mcp.check')}
        </button>
        <button
          type="button"
          className={confirming ? 'button button-danger' : 'button'}
          disabled={busy}
          onClick={() => {
            if (!confirming) return setConfirming(true);
            setConfirming(false);
            void remove(server.name).then(setError);
          }}
          onBlur={() => setConfirming(false)}
          data-testid="mcp-server-remove"
        >
          {confirming ? t('mcpAdd.remove.confirm', { name: server.name }) : t('mcpAdd.remove')}
        </button>
      </div>
      {server.transport === 'stdio' || !server.enabled ? null : (
        <McpSignIn server={server} workspacePath={workspacePath} />
      )}
      <ErrorNotice error={error} testId="mcp-server-action-error" />
    </li>
  );
}
