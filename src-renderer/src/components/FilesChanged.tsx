// A job's "Files changed (N)" block after its closing comment: each file its steps wrote or edited, with the lines
// added and removed, opening to the diff of each change (files-changed.ts works the list out from the steps loaded).
import { memo, useState } from 'react';
import { useT } from '../hooks/useT';
import { DiffView } from './DiffView';
import type { FeedRow } from './feed-rows';
import type { ChangedFile } from './files-changed';

type FilesRow = Extract<FeedRow, { kind: 'files' }>;

export const FilesChanged = memo(function FilesChanged({ row }: { row: FilesRow }) {
  const t = useT();
  return (
    <section
      className="message message-from-agent files-changed"
      data-testid="files-changed"
      data-job-id={row.jobId}
      aria-label={t('files.label')}
    >
      <header className="message-header">
        <span className="message-kind">{t('files.title', { count: row.files.length })}</span>
      </header>
      {row.partial ? (
        <p className="stream-note" data-testid="files-changed-partial">
          {t('files.partial')}
        </p>
      ) : null}
      <ul className="files-changed-list">
        {row.files.map((file) => (
          <FileItem key={file.path} file={file} />
        ))}
      </ul>
    </section>
  );
});

function FileItem({ file }: { file: ChangedFile }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <li className="files-changed-file" data-testid="files-changed-file" data-path={file.path}>
      <button
        type="button"
        className="files-changed-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={open ? t('files.hide') : t('files.show')}
        data-testid="files-changed-toggle"
      >
        <code className="diff-file">{file.path}</code>
        <span className="diff-count diff-count-added" data-testid="files-changed-added">
          {t('diff.added', { count: file.added })}
        </span>
        <span className="diff-count diff-count-removed" data-testid="files-changed-removed">
          {t('diff.removed', { count: file.removed })}
        </span>
        {file.changes.length > 1 ? (
          <span className="stream-note">{t('files.changes', { count: file.changes.length })}</span>
        ) : null}
      </button>
      {open
        ? file.changes.map((change) => (
            <div key={change.callId} className="step-result">
              <p className="step-result-line">{change.summary}</p>
              <DiffView text={change.diff} testId="files-changed-diff" />
            </div>
          ))
        : null}
    </li>
  );
}
