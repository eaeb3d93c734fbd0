// useAttachments: the CreateTaskDialog's attachment list and the ways files get into it (file input, drop, paste).
import { type ClipboardEvent, type DragEvent, useRef, useState } from 'react';
import { attachmentProblemText, type PendingAttachment, readAttachment, uniqueName } from './attachment-files';
import { useT } from './useT';

interface ShownProblem {
  key: number;
  name: string;
  text: string;
}

/**
 * The attachment list and how files get into it. Files are added one after another in arrival order (a later drop
 * waits for an earlier one), each checked against the files before it; the problems of the latest addition show
 * until the next one.
 */
export function useAttachments() {
  const [list, setList] = useState<PendingAttachment[]>([]);
  const [problems, setProblems] = useState<ShownProblem[]>([]);
  const [reading, setReading] = useState(0);
  const [dragging, setDragging] = useState(false);
  const listRef = useRef<PendingAttachment[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const problemKey = useRef(0);
  const t = useT();

  const commit = (next: PendingAttachment[]) => {
    listRef.current = next;
    setList(next);
  };

  const add = (files: readonly File[], pasted: boolean) => {
    if (files.length === 0) return;
    setReading((n) => n + 1);
    queue.current = queue.current.then(async () => {
      const found: ShownProblem[] = [];
      for (const file of files) {
        const current = listRef.current;
        // The clipboard names every pasted image alike ("image.png"): number it instead of refusing it.
        const name = pasted
          ? uniqueName(
              file.name || 'pasted',
              current.map((a) => a.name),
            )
          : file.name;
        const outcome = await readAttachment(file, name, current);
        if (outcome.ok) commit([...listRef.current, outcome.attachment]);
        else found.push({ key: problemKey.current++, name, text: attachmentProblemText(outcome.problem, t) });
      }
      setProblems(found);
      setReading((n) => n - 1);
    });
  };

  const remove = (id: number) => {
    commit(listRef.current.filter((a) => a.id !== id));
    setProblems([]);
  };

  const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');

  return {
    list,
    problems,
    reading: reading > 0,
    dragging,
    add,
    remove,
    onPaste(e: ClipboardEvent) {
      const files = [...e.clipboardData.files];
      if (files.length === 0) return;
      // Files on the clipboard (a screenshot) are attached; plain text pastes into the field as usual.
      e.preventDefault();
      add(files, true);
    },
    onDragOver(e: DragEvent) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave(e: DragEvent) {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop(e: DragEvent) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      add([...e.dataTransfer.files], false);
    },
  };
}
