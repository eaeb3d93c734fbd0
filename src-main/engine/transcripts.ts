// Where a task's transcript and its kept conversation points live. Alone on a SQLite file: in the task's runtime dir
// (runs/{taskId}/transcript.jsonl, runs/{taskId}/conversation/{name}.jsonl), as files (fileTranscript below). On a
// database several hosts share: in the database (jobs/transcripts.ts), so a job resumed or continued on another host
// finds its conversation. The engine sees only this port; which one a job gets is the store's choice (JobJournal).
// At every Invoke the transcript is kept as it was before the job seeds its thread (keep): a Continue rewrites the
// whole text into one thread, so no later reading could cut it back at a Send. A conversation rewind puts that copy
// back (keeping the one it replaces, under the rewind's checkpoint, for its undo); a fork starts from it byte for
// byte (P9.21).
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic, writeFileAtomicAsync } from '../workspace/atomic-write';

export const TRANSCRIPT_FILE = 'transcript.jsonl';

/** One task's transcript: whole lines of text, appended, replaced, and kept at named points. */
export interface TaskTranscript {
  /** The whole text ('' when there is none). */
  read(): string;
  /** Cuts a torn last line (a crash mid-write), so appends start on a clean line. */
  mendTornEnd(): void;
  /** Appends whole lines; they are stored before it returns (a failed write throws). O(appended bytes). */
  append(lines: string): void;
  /** Replaces the whole text atomically: a crash leaves the old text or the new. */
  replace(text: string): void;
  /** Lets go of what appends hold open (a file descriptor); a later append takes it again. */
  close(): void;
  /** Keeps the text as it is now under `name` (an Invoke's seq, or `rewind-<checkpoint id>`). */
  keep(name: string): Promise<void>;
  /** The text kept under `name`, or null when none was. */
  kept(name: string): string | null;
}

/** The transcript as files in the task's runtime dir (runs/{taskId}/). */
export function fileTranscript(runtimeDir: string): TaskTranscript {
  const file = path.join(runtimeDir, TRANSCRIPT_FILE);
  const pointFile = (name: string) => path.join(runtimeDir, 'conversation', `${name}.jsonl`);
  let fd: number | null = null;
  const close = () => {
    if (fd !== null) fs.closeSync(fd);
    fd = null;
  };
  return {
    read: () => readWhole(file),
    mendTornEnd() {
      const text = readWhole(file);
      if (text && !text.endsWith('\n'))
        fs.truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    },
    append(lines) {
      if (lines === '') return;
      if (fd === null) {
        fs.mkdirSync(runtimeDir, { recursive: true });
        fd = fs.openSync(file, 'a', 0o600);
      }
      fs.writeSync(fd, lines);
    },
    replace(text) {
      close(); // the rename replaces the file: later writes go to the new one
      writeFileAtomic(file, text, 0o600);
    },
    close,
    // Off the event loop: every Invoke keeps one, and a long transcript's fsync would hold every stream meanwhile.
    async keep(name) {
      const transcript = await fs.promises.readFile(file, 'utf8').catch((error) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
        throw error;
      });
      await writeFileAtomicAsync(pointFile(name), transcript);
    },
    kept(name) {
      const point = pointFile(name);
      return fs.existsSync(point) ? fs.readFileSync(point, 'utf8') : null;
    },
  };
}

function readWhole(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
