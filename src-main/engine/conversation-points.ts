// The conversation as each Send found it: at every Invoke the task's transcript is kept as it was
// (runs/{taskId}/conversation/{seq}.jsonl) before the job seeds its thread — a Continue rewrites the whole file into
// one thread, so no later reading could cut it back at a Send. A conversation rewind puts that copy back (keeping
// the one it replaces, under the rewind's checkpoint, for its undo); a fork starts from it byte for byte (P9.21).
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic, writeFileAtomicAsync } from '../workspace/atomic-write';
import { TRANSCRIPT_FILE } from './conversation';

const pointFile = (runtimeDir: string, name: string) => path.join(runtimeDir, 'conversation', `${name}.jsonl`);

/** Keeps the transcript as it is now under `name` (an Invoke's seq, or `rewind-<checkpoint id>`), off the event loop. */
export async function keepConversation(runtimeDir: string, name: string): Promise<void> {
  const transcript = await fs.promises.readFile(path.join(runtimeDir, TRANSCRIPT_FILE), 'utf8').catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  await writeFileAtomicAsync(pointFile(runtimeDir, name), transcript);
}

/** The transcript kept under `name`, or null when none was (a Send made before they were kept). */
export function keptConversation(runtimeDir: string, name: string): string | null {
  const file = pointFile(runtimeDir, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/** Makes `text` the task's transcript (atomically: a crash leaves the old one or this). */
export function putConversation(runtimeDir: string, text: string): void {
  writeFileAtomic(path.join(runtimeDir, TRANSCRIPT_FILE), text);
}
