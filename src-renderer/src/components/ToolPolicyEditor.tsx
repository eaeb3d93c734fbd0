// Settings' Workspace Tool Policy editor: choose a workspace (a space, or the default workspace), then per tool allow /
// ask / deny, whether edits ask first, and the commands that run without asking, saved to the folder's
// .maestro/policy.json. The file's format
// (tools.deny, run_command.allow) is the editor's model; main checks it and names a bad field, shown beside it.
import { useEffect, useState } from 'react';
import { RUN_ANY_COMMAND, type ToolPolicyDocument } from '../../../src-shared/tool-policy';
import type { ApiError } from '../api/client';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { asksBeforeEdits, withAskBeforeEdits } from '../store/tool-policy-slice';
import { ErrorNotice } from './OutcomeNotice';
import { CheckField, SaveActions } from './SettingsFields';
import { SettingsWorkspace } from './SettingsWorkspace';
import { SshTargetKeys } from './SshTargetKeys';

type Mode = 'allow' | 'ask' | 'deny';

/**
 * What each tool can be set to. run_command asks unless a rule allows the command (allow = the `*` rule);
 * request_package always asks; every other tool simply is there or not.
 */
const modesOf = (tool: string): Mode[] =>
  tool === 'run_command' ? ['allow', 'ask', 'deny'] : tool === 'request_package' ? ['ask', 'deny'] : ['allow', 'deny'];

interface Draft {
  deny: string[];
  /** run_command.allow without the `*` rule, which is the run_command "allow" choice instead. */
  patterns: string[];
  allowAll: boolean;
  /** tools.ask: the form edits only its editing tools ("Ask before editing files"); the rest is saved back as it was. */
  ask: string[];
  /** What the file says that this form does not edit (allow rules and patterns, hosts): saved back as it was. */
  kept: {
    allow: string[];
    network: string[];
    limits: ToolPolicyDocument['limits'];
    workspaceCommit: ToolPolicyDocument['workspace_commit'];
    ssh: ToolPolicyDocument['ssh'];
  };
}

export const fromDocument = (doc: ToolPolicyDocument): Draft => ({
  deny: [...doc.tools.deny],
  patterns: doc.run_command.allow.filter((r) => r.trim() !== RUN_ANY_COMMAND),
  allowAll: doc.run_command.allow.some((r) => r.trim() === RUN_ANY_COMMAND),
  ask: [...doc.tools.ask],
  kept: {
    allow: [...doc.tools.allow],
    network: [...doc.run_command.network],
    limits: doc.limits,
    workspaceCommit: doc.workspace_commit,
    ssh: doc.ssh,
  },
});

// The patterns first, so an error about run_command.allow.<i> is about the i-th pattern shown.
export const toDocument = (draft: Draft): ToolPolicyDocument => ({
  tools: { deny: draft.deny, ask: draft.ask, allow: draft.kept.allow },
  run_command: {
    allow: [...draft.patterns, ...(draft.allowAll ? [RUN_ANY_COMMAND] : [])],
    network: draft.kept.network,
  },
  ...(draft.kept.limits ? { limits: draft.kept.limits } : {}),
  ...(draft.kept.workspaceCommit !== undefined ? { workspace_commit: draft.kept.workspaceCommit } : {}),
  ...(draft.kept.ssh ? { ssh: draft.kept.ssh } : {}),
});

function modeOf(draft: Draft, tool: string): Mode {
  if (draft.deny.includes(tool)) return 'deny';
  if (tool === 'run_command') return draft.allowAll ? 'allow' : 'ask';
  return modesOf(tool).includes('ask') ? 'ask' : 'allow';
}

function withMode(draft: Draft, tool: string, mode: Mode): Draft {
  const deny = draft.deny.filter((t) => t !== tool);
  return {
    ...draft,
    deny: mode === 'deny' ? [...deny, tool] : deny,
    allowAll: tool === 'run_command' ? mode === 'allow' : draft.allowAll,
  };
}

/** A save's issues placed beside what they are about: `tool:<name>`, `pattern:<index>`, or `general`. */
function placeIssues(error: ApiError, sent: Draft): Record<string, string> {
  const placed: Record<string, string> = {};
  const put = (key: string, message: string) => {
    placed[key] = placed[key] ? `${placed[key]}; ${message}` : message;
  };
  for (const issue of error.issues) {
    const [root, section, key, index] = issue.path;
    if (root === 'policy' && section === 'tools' && key === 'deny' && typeof index === 'number') {
      put(`tool:${sent.deny[index] ?? index}`, issue.message);
    } else if (root === 'policy' && section === 'run_command' && key === 'allow' && typeof index === 'number') {
      put(index < sent.patterns.length ? `pattern:${index}` : 'tool:run_command', issue.message);
    } else put('general', `${issue.path.join('.')}: ${issue.message}`);
  }
  if (Object.keys(placed).length === 0) put('general', error.message);
  return placed;
}

export function ToolPolicyEditor() {
  const chosen = useAppStore((s) => s.toolPolicyFor);
  const view = useAppStore((s) => s.toolPolicy);
  const loadState = useAppStore((s) => s.toolPolicyLoad);
  const loadError = useAppStore((s) => s.toolPolicyError);
  const load = useAppStore((s) => s.loadToolPolicy);
  const save = useAppStore((s) => s.saveToolPolicy);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [newPattern, setNewPattern] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const t = useT();

  // What was loaded or saved becomes the form's content.
  useEffect(() => {
    setDraft(view ? fromDocument(view.policy) : null);
    setErrors({});
  }, [view]);

  const edit = (next: Draft) => {
    setDraft(next);
    setSaved(false);
  };

  function addPattern() {
    const rule = newPattern.trim();
    if (!draft || rule === '' || draft.patterns.includes(rule)) return;
    edit({ ...draft, patterns: [...draft.patterns, rule] });
    setNewPattern('');
  }

  async function submit() {
    if (!draft || !view) return;
    setBusy(true);
    const failure = await save(view.workspacePath, toDocument(draft));
    setBusy(false);
    setErrors(failure ? placeIssues(failure, draft) : {});
    setSaved(!failure);
  }

  return (
    <section data-testid="tool-policy-settings">
      <h3 className="settings-section">{t('settings.toolPolicy')}</h3>
      <p className="field-hint">{t('settings.toolPolicy.about')}</p>
      <SettingsWorkspace
        chosen={chosen}
        onChoose={(folder) => void load(folder)}
        testId="tool-policy-workspace"
        noneTestId="tool-policy-no-workspaces"
      />
      <ErrorNotice error={loadError} testId="tool-policy-load-error" />
      {chosen && loadState === 'loading' ? <p className="field-hint">{t('settings.toolPolicy.loading')}</p> : null}
      {view && draft ? (
        <>
          <ErrorNotice error={view.error} testId="tool-policy-file-error" />
          <h4 className="policy-heading">{t('settings.toolPolicy.tools')}</h4>
          <ul className="policy-tools">
            {view.knownTools.map((tool) => (
              <li key={tool} className="policy-tool" data-testid="tool-policy-tool" data-tool={tool}>
                <code className="policy-tool-name">{tool}</code>
                <select
                  value={modeOf(draft, tool)}
                  onChange={(e) => edit(withMode(draft, tool, e.target.value as Mode))}
                  aria-label={tool}
                  aria-invalid={errors[`tool:${tool}`] !== undefined}
                  data-testid={`tool-policy-mode-${tool}`}
                >
                  {modesOf(tool).map((mode) => (
                    <option key={mode} value={mode}>
                      {t(`settings.toolPolicy.${mode}`)}
                    </option>
                  ))}
                </select>
                {errors[`tool:${tool}`] ? (
                  <span className="field-error" data-testid="tool-policy-error">
                    {errors[`tool:${tool}`]}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
          <CheckField
            checked={asksBeforeEdits(draft.ask)}
            onChange={(on) => edit({ ...draft, ask: withAskBeforeEdits(draft.ask, on) })}
            testId="tool-policy-ask-edits"
          >
            {t('settings.toolPolicy.askEdits')}
          </CheckField>
          <p className="field-hint">{t('settings.toolPolicy.askEditsHint')}</p>
          <h4 className="policy-heading">{t('settings.toolPolicy.commands')}</h4>
          <p className="field-hint">{t('settings.toolPolicy.commandsHint')}</p>
          {draft.patterns.length === 0 ? (
            <p className="empty" data-testid="tool-policy-no-commands">
              {t('settings.toolPolicy.noCommands')}
            </p>
          ) : (
            <ul className="policy-commands">
              {draft.patterns.map((rule, i) => (
                <li key={rule} className="policy-command" data-testid="tool-policy-command">
                  <code className="policy-command-text">{rule}</code>
                  <button
                    type="button"
                    className="button"
                    onClick={() => edit({ ...draft, patterns: draft.patterns.filter((_, j) => j !== i) })}
                    data-testid="tool-policy-command-remove"
                  >
                    {t('settings.toolPolicy.remove')}
                  </button>
                  {errors[`pattern:${i}`] ? (
                    <span className="field-error" data-testid="tool-policy-error">
                      {errors[`pattern:${i}`]}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <div className="policy-add">
            <input
              className="policy-add-input"
              value={newPattern}
              placeholder={t('settings.toolPolicy.commandPlaceholder')}
              onChange={(e) => setNewPattern(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') addPattern();
              }}
              aria-label={t('settings.toolPolicy.commands')}
              data-testid="tool-policy-command-input"
            />
            <button
              type="button"
              className="button"
              disabled={newPattern.trim() === ''}
              onClick={addPattern}
              data-testid="tool-policy-command-add"
            >
              {t('settings.toolPolicy.add')}
            </button>
          </div>
          <ErrorNotice error={errors.general} testId="tool-policy-error" />
          {saved ? (
            <p className="notice notice-ok" data-testid="tool-policy-saved">
              {t('settings.toolPolicy.saved')}
            </p>
          ) : null}
          <SaveActions
            busy={busy}
            onSave={() => void submit()}
            testId="tool-policy-save"
            label={t('settings.toolPolicy.save')}
          />
          <SshTargetKeys workspacePath={view.workspacePath} />
        </>
      ) : null}
    </section>
  );
}
