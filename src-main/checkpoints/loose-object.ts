// Snapshot commits written by the host itself as loose objects (what `git commit-tree` writes, byte for byte in
// format): a commit is a few hundred bytes, and a git process for it cost a step 10–70 ms of a shared machine.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export interface ObjectDb {
  /** The folder git writes loose objects to (`git rev-parse --git-path objects`). */
  dir: string;
  format: 'sha1' | 'sha256';
}

/** Writes `body` as a loose object of `type` (unless it is there already); its name. */
export function writeLooseObject(db: ObjectDb, type: 'commit', body: Buffer): string {
  const data = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const name = createHash(db.format).update(data).digest('hex');
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
  fs.writeFileSync(temp, deflateSync(data), { mode: 0o444 });
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
