// The files attached to an instruction, as chips on its message: names and sizes come with the comment; an image's
// thumbnail is read from main once it is on screen (getTaskAttachment), so no page of the chat carries file bytes.
import { useEffect, useState } from 'react';
import { isImageMediaType } from '../../../src-shared/attachments';
import type { AttachmentInfo } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { AttachmentChips } from './AttachmentChips';

/** Thumbnails already read, by task and name: a row scrolled out of the virtual feed and back does not read again. */
const previews = new Map<string, string>();
const PREVIEWS_KEPT = 24;
/** Thumbnails on their way, so two rows showing the same file read it once. */
const reading = new Set<string>();
/**
 * The rows on screen, told when a thumbnail arrives: the row that asked for it may have been drawn again (a new list
 * of attachments from the store) or replaced (scrolled out and back) while it was read, and the one on screen shows it.
 */
const shown = new Set<() => void>();

interface Props {
  taskId: string;
  attachments: readonly AttachmentInfo[];
}

export function InstructionAttachments({ taskId, attachments }: Props) {
  const t = useT();
  const readAttachment = useAppStore((s) => s.readAttachment);
  const [, setLoaded] = useState(0);
  const [problem, setProblem] = useState<{ name: string; error: string } | null>(null);

  useEffect(() => {
    const arrived = () => setLoaded((n) => n + 1);
    shown.add(arrived);
    return () => {
      shown.delete(arrived);
    };
  }, []);

  useEffect(() => {
    let live = true;
    for (const a of attachments) {
      const k = key(taskId, a.name);
      if (!isImageMediaType(a.mediaType) || previews.has(k) || reading.has(k)) continue;
      reading.add(k);
      void readAttachment(taskId, a.name).then((read) => {
        reading.delete(k);
        // Kept even when this row has gone meanwhile: the next one to show the file needs it.
        if (read.ok) remember(k, `data:${read.file.mediaType};base64,${read.file.data}`);
        else if (live) setProblem({ name: a.name, error: read.error.message });
      });
    }
    return () => {
      live = false;
    };
  }, [taskId, attachments, readAttachment]);

  const chips = attachments.map((a) => ({ ...a, id: a.name, preview: previews.get(key(taskId, a.name)) ?? null }));
  return (
    <div className="message-attachments" data-testid="message-attachments">
      <AttachmentChips attachments={chips} label={t('chat.attachments')} />
      {problem ? (
        <p className="field-hint text-error" data-testid="attachment-problem">
          {t('chat.attachment.unreadable', problem)}
        </p>
      ) : null}
    </div>
  );
}

const key = (taskId: string, name: string) => `${taskId}\n${name}`;

function remember(k: string, url: string) {
  previews.delete(k);
  previews.set(k, url);
  // The oldest go first: a Map keeps insertion order.
  while (previews.size > PREVIEWS_KEPT) previews.delete(previews.keys().next().value as string);
  for (const arrived of shown) arrived();
}
