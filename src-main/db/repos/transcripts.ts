// Repository of the transcripts a shared database keeps (migration 23): a task's transcript as the chunks appended
// to it, read back in seq order, and the transcript kept at named points. Alone on SQLite the transcript is files
// (engine/transcripts.ts); jobs/transcripts.ts chooses.
import type { SqlDatabase } from '../sql';

export function createTranscriptsRepo(db: SqlDatabase) {
  const chunks = db.prepare<[string], string>('SELECT body FROM transcript_chunks WHERE task_id = ? ORDER BY seq');
  chunks.pluck();
  const add = db.prepare<[string, string, number]>(
    'INSERT INTO transcript_chunks (task_id, body, created_at) VALUES (?, ?, ?)',
  );
  const clear = db.prepare<[string]>('DELETE FROM transcript_chunks WHERE task_id = ?');
  const putPoint = db.prepare<[string, string, string, number]>(
    `INSERT INTO transcript_points (task_id, name, body, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (task_id, name) DO UPDATE SET body = excluded.body, created_at = excluded.created_at`,
  );
  const point = db.prepare<[string, string], string>(
    'SELECT body FROM transcript_points WHERE task_id = ? AND name = ?',
  );
  point.pluck();
  const text = (taskId: string) => (chunks.all(taskId) as string[]).join('');
  return {
    /** The task's whole transcript ('' when it has none). */
    text,
    /** Appends `body` (whole lines) as one row: the earlier rows are not read or written. */
    append(taskId: string, body: string, now = Date.now()): void {
      if (body !== '') add.run(taskId, body, now);
    },
    /** Makes `body` the task's whole transcript, in one transaction (a crash leaves the old text or this). */
    replace(taskId: string, body: string, now = Date.now()): void {
      db.transaction(() => {
        clear.run(taskId);
        if (body !== '') add.run(taskId, body, now);
      }).immediate();
    },
    /** Keeps the transcript as it is now under `name` (replacing what was kept under it). */
    keep(taskId: string, name: string, now = Date.now()): void {
      db.transaction(() => putPoint.run(taskId, name, text(taskId), now)).immediate();
    },
    /** The transcript kept under `name`, or null when none was. */
    kept(taskId: string, name: string): string | null {
      return (point.get(taskId, name) as string | undefined) ?? null;
    },
  };
}
export type TranscriptsRepo = ReturnType<typeof createTranscriptsRepo>;
