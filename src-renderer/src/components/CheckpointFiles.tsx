// What one checkpoint recorded as changed since the previous one, shown under the tool call whose run changed it, or
// — changed outside the agent — under the Send or call it was found at: a count that opens the list, each file
// marked added, modified, deleted or renamed, and the paths the snapshot left out (never restored or removed by a
// rewind). Paths come from the workspace, which the model
// writes: they go through the untrusted-text renderer.
import { useState } from 'react';
import type { Checkpoint, CheckpointFile, FileChangeKind } from '../../../src-shared/checkpoints';
import { useT } from '../hooks/useT';
import { changedOutside } from '../store/checkpoint-index';
import { UntrustedLine } from './UntrustedText';

/** git's one-letter marks, which a person who reads `git status` knows. */
const MARK: Record<FileChangeKind, string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };

export function ChangeMark({ change }: { change: FileChangeKind }) {
  const t = useT();
  const word = t(`checkpoint.change.${change}`);
  return (
    <abbr className={`change-mark change-mark-${change}`} title={word} aria-label={word} data-change={change}>
      {MARK[change]}
    </abbr>
  );
}

/** A changed file as a list names it: its mark, its path, and the path it was renamed from. */
export function ChangedFileName({ file, pathClass }: { file: CheckpointFile; pathClass?: string }) {
  const t = useT();
  return (
    <>
      <ChangeMark change={file.change} />
      <code className={pathClass}>
        <UntrustedLine text={file.path} />
      </code>
      {file.from ? (
        <span className="checkpoint-from">
          <UntrustedLine text={t('checkpoint.renamedFrom', { from: file.from })} />
        </span>
      ) : null}
    </>
  );
}

export function CheckpointFiles({ checkpoint }: { checkpoint: Checkpoint }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const { files, skipped } = checkpoint;
  if (files.length === 0 && skipped.length === 0) return null;
  const outside = changedOutside(checkpoint);
  return (
    <div
      className="checkpoint-files"
      data-testid="checkpoint-files"
      data-checkpoint-id={checkpoint.id}
      data-kind={checkpoint.kind}
      data-count={files.length}
      data-outside={outside}
    >
      <button
        type="button"
        className="checkpoint-files-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="checkpoint-files-toggle"
      >
        {files.length === 0
          ? t('checkpoint.skipped', { count: skipped.length })
          : t(outside ? 'checkpoint.filesOutside' : 'checkpoint.files', { count: files.length })}
      </button>
      {open ? (
        <ul className="checkpoint-file-list" aria-label={t('checkpoint.filesLabel')}>
          {files.map((file) => (
            <li
              key={`${file.change}:${file.path}`}
              data-testid="checkpoint-file"
              data-path={file.path}
              data-change={file.change}
            >
              <ChangedFileName file={file} />
            </li>
          ))}
          {files.length > 0 && skipped.length > 0 ? (
            <li className="checkpoint-skipped-title">{t('checkpoint.skipped', { count: skipped.length })}</li>
          ) : null}
          {skipped.map((s) => (
            <li
              key={`skip:${s.path}`}
              className="checkpoint-skipped"
              data-testid="checkpoint-skipped"
              data-path={s.path}
            >
              <code>
                <UntrustedLine text={s.path} />
              </code>
              <span className="checkpoint-from">{t(`checkpoint.skip.${s.reason}`)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
