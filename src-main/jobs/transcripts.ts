// Which transcript a task has: on a database several hosts share, its rows there (so any host that resumes or
// continues the task's job finds its conversation); alone on SQLite, its files in runs/{taskId}/ as ever.
import type { Store } from '../db/store';
import { fileTranscript, type TaskTranscript } from '../engine/transcripts';

/** The task's transcript where this store keeps it; `runtimeDir`: the task's runs/{taskId}/ (the files' place). */
export function taskTranscript(store: Store, runtimeDir: string, taskId: string): TaskTranscript {
  return store.shared ? databaseTranscript(store, taskId) : fileTranscript(runtimeDir);
}

function databaseTranscript(store: Store, taskId: string): TaskTranscript {
  const rows = store.transcripts;
  return {
    read: () => rows.text(taskId),
    // A row is written whole or not at all: no line is ever torn.
    mendTornEnd: () => undefined,
    append: (lines) => rows.append(taskId, lines),
    replace: (text) => rows.replace(taskId, text),
    close: () => undefined,
    keep: async (name) => rows.keep(taskId, name),
    kept: (name) => rows.kept(taskId, name),
  };
}
