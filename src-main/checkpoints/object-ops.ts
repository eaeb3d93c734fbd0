// The CPU and disk work of a capture and a seal — files read and named, zlib-compressed, written as loose objects —
// as requests the object worker (object-worker.ts) runs off the main thread, or object-writer.ts runs here when no
// worker can: one implementation for both.
import { assertNever } from '../../src-shared/assert-never';
import { hashFile } from './fast-state';
import type { StatKey } from './index-file';
import { type ObjectDb, type ObjectType, writeLooseObject } from './loose-object';

/** A file to store as a blob, with the stat it was seen with (a capture compares it again after reading). */
export interface BlobJob {
  abs: string;
  key: StatKey;
}

/** A stored file's blob and the stat to keep for it (null: changed too recently to trust); null if unreadable. */
export type BlobDone = { oid: string; stat: StatKey | null } | null;

export type ObjectRequest =
  | { op: 'blobs'; db: ObjectDb; files: BlobJob[]; startedNs: bigint }
  | { op: 'objects'; db: ObjectDb; objects: { type: ObjectType; body: Uint8Array }[] };

export type ObjectAnswer<R extends ObjectRequest> = R extends { op: 'blobs' } ? BlobDone[] : string[];

/** Runs one request; throws what writing throws (a full disk is no reason to try elsewhere). */
export function runObjectRequest(request: ObjectRequest): BlobDone[] | string[] {
  switch (request.op) {
    case 'blobs':
      return request.files.map((f) => storeBlob(request.db, f, request.startedNs));
    case 'objects':
      return request.objects.map((o) => writeLooseObject(request.db, o.type, Buffer.from(o.body)));
    default:
      return assertNever(request);
  }
}

function storeBlob(db: ObjectDb, file: BlobJob, startedNs: bigint): BlobDone {
  let hashed: ReturnType<typeof hashFile>;
  try {
    hashed = hashFile(db, file.abs, file.key, startedNs);
  } catch {
    return null; // unreadable, or gone meanwhile: git decides about it
  }
  writeLooseObject(db, 'blob', hashed.body);
  return { oid: hashed.oid, stat: hashed.stat };
}
