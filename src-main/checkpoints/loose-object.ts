// Git objects written by the host itself as loose objects (what `git hash-object -w`, `write-tree` and `commit-tree`
// write, byte for byte in format): a snapshot commit, and the blobs and trees of a step's capture (fast-capture.ts);
// a git process for any of them cost a step 10–70 ms of a shared machine.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export interface ObjectDb {
  /** The folder git writes loose objects to (`git rev-parse --git-path objects`). */
  dir: string;
  format: 'sha1' | 'sha256';
}

export type ObjectType = 'blob' | 'tree' | 'commit';

/** The name git gives `body` as an object of `type` (nothing written). */
export function objectName(format: ObjectDb['format'], type: ObjectType, body: Buffer): string {
  return createHash(format).update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** Writes `body` as a loose object of `type` (unless it is there already); its name. */
export function writeLooseObject(db: ObjectDb, type: ObjectType, body: Buffer): string {
  const name = objectName(db.format, type, body);
  const folder = path.join(db.dir, name.slice(0, 2));
  const file = path.join(folder, name.slice(2));
  if (fs.existsSync(file)) return name;
  if (!fs.existsSync(folder)) {
    fs.mkdirSync(folder, { recursive: true });
    // A shared repository's folders are group-writable (core.sharedRepository): a new one is made like the others.
    fs.chmodSync(folder, (fs.statSync(db.dir).mode & 0o7777) | 0o700);
  }
  // Written aside then linked in, as git does: a reader never sees half an object, an existing one is kept.
  const temp = path.join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(temp, deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])), { mode: 0o444 });
  try {
    fs.linkSync(temp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return name;
}

/** A commit object's text, as `git commit-tree` writes it with the given identity (UTC). */
export function commitBody(options: {
  tree: string;
  parent: string | null;
  ident: string;
  seconds: number;
  message: string;
}): Buffer {
  const when = `${options.ident} ${options.seconds} +0000`;
  const parent = options.parent ? `parent ${options.parent}\n` : '';
  return Buffer.from(`tree ${options.tree}\n${parent}author ${when}\ncommitter ${when}\n\n${options.message}`);
}
