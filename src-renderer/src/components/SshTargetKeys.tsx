// Settings → Tool Policy: the workspace's SSH targets (named in its policy file) and how each is reached — the
// person's SSH agent, or a private key file they choose here. The host reads the file once and keeps it sealed; the
// key never comes back to this view, only whether one is saved.
import { useEffect, useState } from 'react';
import type { SshTargetView } from '../../../src-shared/contract';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ErrorNotice } from './OutcomeNotice';

function TargetRow({ workspacePath, target }: { workspacePath: string; target: SshTargetView }) {
  const save = useAppStore((s) => s.saveSshTargetKey);
  const [file, setFile] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const choose = async (keyFile: string | null) => {
    setBusy(true);
    const failure = await save(workspacePath, target.name, keyFile);
    setBusy(false);
    setError(failure ? failure.message : null);
    if (!failure) setFile('');
  };
  return (
    <li className="policy-tool" data-testid="ssh-target" data-target={target.name} data-key={target.key}>
      <code className="policy-tool-name">{target.name}</code>{' '}
      <span className="field-hint">
        {t('settings.ssh.address', { address: target.address, hostKey: target.hostKey })}
      </span>
      <p className="field-hint" data-testid="ssh-target-key">
        {t(`settings.ssh.key.${target.key}`)}
      </p>
      <div className="policy-add">
        <input
          className="policy-add-input"
          value={file}
          placeholder={t('settings.ssh.keyPlaceholder')}
          onChange={(e) => setFile(e.target.value)}
          aria-label={t('settings.ssh.keyFile', { target: target.name })}
          data-testid="ssh-target-key-file"
        />
        <button
          type="button"
          className="button"
          disabled={busy || file.trim() === ''}
          onClick={() => void choose(file.trim())}
          data-testid="ssh-target-key-save"
        >
          {t('settings.ssh.useKey')}
        </button>
        {target.key !== 'agent' ? (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void choose(null)}
            data-testid="ssh-target-use-agent"
          >
            {t('settings.ssh.useAgent')}
          </button>
        ) : null}
      </div>
      <ErrorNotice error={error} testId="ssh-target-error" />
    </li>
  );
}

export function SshTargetKeys({ workspacePath }: { workspacePath: string }) {
  const targets = useAppStore((s) => s.sshTargets);
  const error = useAppStore((s) => s.sshTargetsError);
  const load = useAppStore((s) => s.loadSshTargets);
  const t = useT();
  useEffect(() => {
    void load(workspacePath);
  }, [load, workspacePath]);
  return (
    <div data-testid="ssh-targets">
      <h4 className="policy-heading">{t('settings.ssh.targets')}</h4>
      <p className="field-hint">{t('settings.ssh.about')}</p>
      <ErrorNotice error={error} testId="ssh-targets-error" />
      {targets && targets.length === 0 ? (
        <p className="empty" data-testid="ssh-targets-none">
          {t('settings.ssh.none')}
        </p>
      ) : null}
      {targets && targets.length > 0 ? (
        <ul className="policy-tools">
          {targets.map((target) => (
            <TargetRow key={target.name} workspacePath={workspacePath} target={target} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
