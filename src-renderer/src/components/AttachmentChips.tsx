// Attached files, one chip each: a thumbnail for an image, the name and the size. In the CreateTaskDialog each chip
// has a remove button and the total follows; on an instruction in the chat (InstructionAttachments) they only show.
import { formatBytes } from '../../../src-shared/attachments';
import { useT } from '../hooks/useT';

export interface ChipFile {
  /** Stable key for the list. */
  id: number | string;
  name: string;
  mediaType: string;
  bytes: number;
  /** A data: URL for an image's thumbnail; null while there is none (text, or not loaded). */
  preview: string | null;
}

interface Props {
  attachments: readonly ChipFile[];
  /** Given: each chip can be removed and the total is shown (the dialog). */
  onRemove?(id: ChipFile['id']): void;
  label?: string;
}

export function AttachmentChips({ attachments, onRemove, label }: Props) {
  const t = useT();
  if (attachments.length === 0) return null;
  const total = attachments.reduce((sum, a) => sum + a.bytes, 0);
  return (
    <>
      <ul className="attachment-chips" data-testid="attachment-chips" aria-label={label}>
        {attachments.map((a) => (
          <li
            key={a.id}
            className="attachment-chip"
            data-testid="attachment-chip"
            data-name={a.name}
            data-media-type={a.mediaType}
            title={`${a.name} · ${formatBytes(a.bytes)}`}
          >
            {a.preview ? (
              <img className="attachment-thumb" src={a.preview} alt="" data-testid="attachment-thumb" />
            ) : (
              <span className="attachment-thumb attachment-thumb-text" aria-hidden="true">
                {fileBadge(a.name)}
              </span>
            )}
            <span className="attachment-name">{a.name}</span>
            <span className="attachment-size" data-testid="attachment-size">
              {formatBytes(a.bytes)}
            </span>
            {onRemove ? (
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
            ) : null}
          </li>
        ))}
      </ul>
      {onRemove ? (
        <p className="field-hint" data-testid="attachment-total">
          {t('create.attachedTotal', { count: attachments.length, size: formatBytes(total) })}
        </p>
      ) : null}
    </>
  );
}

/** The extension, short, as a text file's stand-in thumbnail. */
function fileBadge(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : 'TXT';
}
