import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { openDatabase } from './connection';
import { CHECKPOINT_FRAMES, HEADER_BYTES, pendingFrames, SAFETY_NET_FRAMES, WalCheckpointer } from './wal-checkpointer';

const opened: { db: Database; checkpointer?: WalCheckpointer }[] = [];
afterEach(async () => {
  for (const { db, checkpointer } of opened.splice(0)) {
    await checkpointer?.close();
    if (db.open) db.close();
  }
});

function database(): Database {
  const db = openDatabase(path.join(tempDir(), 'maestro.db'));
  db.exec('CREATE TABLE scratch (n INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT');
  opened.push({ db });
  return db;
}

function start(db: Database, options: ConstructorParameters<typeof WalCheckpointer>[1] = {}): WalCheckpointer {
  const checkpointer = new WalCheckpointer(db, { pollMs: 10, ...options });
  const entry = opened.find((o) => o.db === db);
  if (entry) entry.checkpointer = checkpointer;
  return checkpointer;
}

/** `count` commits of one row of about a page each: about `count` frames in the WAL. */
function write(db: Database, count: number, from = 0): void {
  const insert = db.prepare('INSERT INTO scratch (n, body) VALUES (?, ?)');
  for (let n = from; n < from + count; n++) insert.run(n, `${n}:`.padEnd(3000, 'x'));
}

function frames(db: Database): number {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = fs.openSync(`${db.name}-shm`, 'r');
  try {
    fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  return pendingFrames(header);
}

describe('WalCheckpointer', () => {
  it('reads the frames not yet copied back from the -shm header, as SQLite counts them', () => {
    const db = database();
    db.pragma('wal_autocheckpoint = 0');
    write(db, 40);
    const [own] = db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
    expect(frames(db)).toBeGreaterThanOrEqual(40);
    expect(frames(db)).toBe((own?.log ?? 0) - (own?.checkpointed ?? 0));
    db.pragma('wal_checkpoint(PASSIVE)');
    expect(frames(db)).toBe(0);
  });

  it('checkpoints on its thread when frames are due, while the main connection only keeps a far safety net', async () => {
    const db = database();
    const checkpointer = start(db, { dueFrames: 100 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_FRAMES);
    write(db, 150);
    await vi.waitFor(() => expect(checkpointer.done.checkpoints).toBeGreaterThan(0), { timeout: 5000 });
    expect(checkpointer.done.frames).toBeGreaterThanOrEqual(100);
    // Copied back, so the next commit starts the WAL over instead of growing it.
    write(db, 1, 150);
    expect(frames(db)).toBeLessThan(10);
    expect(checkpointer.done).toMatchObject({ crashes: 0, failures: 0 });
  });

  it('loses nothing: every committed row is in the database after close and reopen', async () => {
    const db = database();
    const checkpointer = start(db, { dueFrames: 50 });
    for (let batch = 0; batch < 6; batch++) {
      write(db, 60, batch * 60);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(checkpointer.done.checkpoints).toBeGreaterThan(0);
    await checkpointer.close();
    db.close();
    // The thread closed its connection first: the main one was the last, and took the WAL away with it.
    expect(fs.existsSync(`${db.name}-wal`)).toBe(false);
    const again = openDatabase(db.name);
    opened.push({ db: again });
    expect(again.prepare('SELECT count(*) AS n, sum(n) AS total FROM scratch').get()).toEqual({
      n: 360,
      total: (359 * 360) / 2,
    });
    expect(again.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('starts no thread before a checkpoint is due, and then closes at once', () => {
    const db = database();
    const checkpointer = start(db);
    write(db, 20);
    expect(checkpointer.close()).toBeUndefined();
    expect(checkpointer.done.checkpoints).toBe(0);
  });

  it('a thread that cannot open the database is started again, and after three crashes SQLite checkpoints itself', async () => {
    const db = database();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // The file is moved away under the open connection: a new connection (the thread's) cannot open it by name.
    fs.renameSync(db.name, `${db.name}.moved`);
    const checkpointer = start(db, { dueFrames: 10 });
    write(db, 20);
    await vi.waitFor(() => expect(checkpointer.active).toBe(false), { timeout: 10_000 });
    expect(checkpointer.done.crashes).toBe(3);
    expect(checkpointer.done.checkpoints).toBe(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_FRAMES);
    expect(errors).toHaveBeenCalledWith(
      'the WAL checkpoint thread failed:',
      expect.objectContaining({ code: 'SQLITE_CANTOPEN' }),
    );
    // The host goes on: its commits still land.
    write(db, 5, 20);
    expect(db.prepare('SELECT count(*) AS n FROM scratch').get()).toEqual({ n: 25 });
    errors.mockRestore();
  });
});
