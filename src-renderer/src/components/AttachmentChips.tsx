// The files attached in the CreateTaskDialog, one chip each: a thumbnail for an image, the name, the size and a remove
// button; below them how many files and bytes that makes.
import { formatBytes } from '../../../src-shared/attachments';
import { useT } from '../i18n';
import type { PendingAttachment } from './attachment-files';

interface Props {
  attachments: readonly PendingAttachment[];
  onRemove(id: number): void;
}

export function AttachmentChips({ attachments, onRemove }: Props) {
  const t = useT();
  if (attachments.length === 0) return null;
  const total = attachments.reduce((sum, a) => sum + a.bytes, 0);
  return (
    <>
      <ul className="attachment-chips" data-testid="attachment-chips">
        {attachments.map((a) => (
          <li
            key={a.id}
            className="attachment-chip"
            data-testid="attachment-chip"
            data-name={a.name}
            data-media-type={a.mediaType}
          >
            {a.preview ? (
              <img className="attachment-thumb" src={a.preview} alt="" data-testid="attachment-thumb" />
            ) : (
              <span className="attachment-thumb attachment-thumb-text" aria-hidden="true">
                {fileBadge(a.name)}
              </span>
            )}
            <span className="attachment-name" title={a.name}>
              {a.name}
            </span>
            <span className="attachment-size">{formatBytes(a.bytes)}</span>
            <button
              type="button"
              className="attachment-remove"
              onClick={() => onRemove(a.id)}
              aria-label={t('create.removeAttachment', { name: a.name })}
              title={t('create.removeAttachment', { name: a.name })}
              data-testid="attachment-remove"
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <p className="field-hint" data-testid="attachment-total">
        {t('create.attachedTotal', { count: attachments.length, size: formatBytes(total) })}
      </p>
    </>
  );
}

/** The extension, short, as a text file's stand-in thumbnail. */
function fileBadge(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : 'TXT';
}
