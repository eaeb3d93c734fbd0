// A unified diff (as the writing tools print it, `diff -u` / `git diff` form) read into lines the diff view colours and
// numbers: the file header, each hunk's header, and its context, removed and added lines with their line numbers on
// either side. Text that is not a diff reads as no lines.

export type DiffLine =
  | { kind: 'file'; text: string }
  | { kind: 'hunk'; text: string }
  | { kind: 'context' | 'removed' | 'added'; text: string; oldNo: number | null; newNo: number | null }
  | { kind: 'note'; text: string };

export interface ParsedDiff {
  /** The file the diff is of (from its `+++` line, else its `---` line), or null. */
  file: string | null;
  lines: DiffLine[];
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The diff in `text` (what comes before its first `---`/`@@` line is left out); null when there is none. */
export function parseDiff(text: string): ParsedDiff | null {
  const all = text.split('\n');
  const start = all.findIndex((l) => l.startsWith('--- ') || HUNK.test(l));
  if (start === -1) return null;
  const lines: DiffLine[] = [];
  let file: string | null = null;
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  let added = 0;
  let removed = 0;
  for (const line of all.slice(start)) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      lines.push({ kind: 'hunk', text: line });
    } else if (!inHunk && (line.startsWith('--- ') || line.startsWith('+++ '))) {
      const name = line.slice(4).replace(/^[ab]\//, '');
      if (name !== '/dev/null' && (line.startsWith('+++ ') || file === null)) file = name;
      lines.push({ kind: 'file', text: line });
    } else if (inHunk && line.startsWith('+')) {
      added++;
      lines.push({ kind: 'added', text: line.slice(1), oldNo: null, newNo: newNo++ });
    } else if (inHunk && line.startsWith('-')) {
      removed++;
      lines.push({ kind: 'removed', text: line.slice(1), oldNo: oldNo++, newNo: null });
    } else if (inHunk && line.startsWith(' ')) {
      lines.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    } else if (line !== '') {
      // "\ No newline at end of file", the note about lines left out, a new file's header.
      lines.push({ kind: 'note', text: line });
      if (!line.startsWith('\\')) inHunk = false;
    }
  }
  return lines.some((l) => l.kind === 'hunk') ? { file, lines, added, removed } : null;
}
