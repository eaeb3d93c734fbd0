// Reads a git index file (versions 2–4) in-process: each stage-0 entry's path, mode, object name and the stat data git
// recorded when it hashed the file, which is the stat cache a step's fast capture (fast-capture.ts) starts from. An
// index this reader does not fully understand (a split index, sparse folders, conflicts, intent-to-add or
// skip-worktree entries) gives null: the capture then stays with git.
import fs from 'node:fs';

/** The stat data a file is compared by (git's `ie_match_stat`, kept to 32 bits as the index keeps it). */
export interface StatKey {
  ctimeS: number;
  ctimeNs: number;
  mtimeS: number;
  mtimeNs: number;
  ino: number;
  size: number;
  /** 0o100644, 0o100755 or 0o120000. */
  mode: number;
}

export interface IndexEntry {
  mode: number;
  oid: string;
  stat: StatKey;
}

export interface IndexFile {
  /** Entries below the workspace's folder, by workspace-relative path. */
  entries: Map<string, IndexEntry>;
  /** Whether some entry anywhere in the index is a `.gitattributes` file. */
  attributes: boolean;
  /** The index file's own modification time (ns): entries changed this late are racily clean (git's rule). */
  mtimeNs: bigint;
}

const FILE_MODES = new Set([0o100644, 0o100755, 0o120000]);
/** Extensions that change what the entries mean: a split index's shared part, sparse folders. */
const UNREAD_EXTENSIONS = new Set(['link', 'sdir']);

/** The entries below `prefix` ('' or `folder/`) of the index at `file`; null when it must be left to git. */
export function readIndexFile(file: string, prefix: string, hashBytes: 20 | 32): IndexFile | null {
  let buf: Buffer;
  let mtimeNs: bigint;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      mtimeNs = fs.fstatSync(fd, { bigint: true }).mtimeNs;
      buf = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const entries = new Map<string, IndexEntry>();
  let attributes = false;
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 40 + hashBytes + 2 > buf.length) return null;
    const stat: StatKey = {
      ctimeS: buf.readUInt32BE(at),
      ctimeNs: buf.readUInt32BE(at + 4),
      mtimeS: buf.readUInt32BE(at + 8),
      mtimeNs: buf.readUInt32BE(at + 12),
      ino: buf.readUInt32BE(at + 20),
      mode: buf.readUInt32BE(at + 24),
      size: buf.readUInt32BE(at + 36),
    };
    const oid = buf.toString('hex', at + 40, at + 40 + hashBytes);
    at += 40 + hashBytes;
    const flags = buf.readUInt16BE(at);
    at += 2;
    // Stage bits (a conflict), extended flags (intent-to-add, skip-worktree), assume-valid: git's own business.
    if (flags & 0xf000) return null;
    let name: Buffer;
    if (version === 4) {
      const [strip, after] = varint(buf, at);
      const end = buf.indexOf(0, after);
      if (end === -1 || strip > previous.length) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), buf.subarray(after, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end === -1) return null;
      name = buf.subarray(at, end);
      at = start + ((40 + hashBytes + 2 + name.length + 8) & ~7);
    }
    previous = name;
    const p = name.toString('utf8');
    if (!Buffer.from(p).equals(name)) return null; // not UTF-8: paths are compared as strings here
    if (p === '.gitattributes' || p.endsWith('/.gitattributes')) attributes = true;
    if (!p.startsWith(prefix)) continue;
    if (!FILE_MODES.has(stat.mode)) return null; // a submodule's commit or a sparse folder
    entries.set(p.slice(prefix.length), { mode: stat.mode, oid, stat });
  }
  // Extensions: 4-byte signature, 4-byte size; the last hashBytes are the checksum.
  while (at + 8 <= buf.length - hashBytes) {
    if (UNREAD_EXTENSIONS.has(buf.toString('latin1', at, at + 4))) return null;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return { entries, attributes, mtimeNs };
}

/** Git's offset varint (index v4's prefix length); the value and the offset after it. */
function varint(buf: Buffer, at: number): [number, number] {
  let c = buf[at++] ?? 0;
  let value = c & 127;
  while (c & 128) {
    c = buf[at++] ?? 0;
    value = ((value + 1) << 7) | (c & 127);
  }
  return [value, at];
}

/** The stat data of an lstat, as the index keeps it. */
export function statKey(st: fs.BigIntStats): StatKey {
  const mode = st.isSymbolicLink() ? 0o120000 : st.mode & 0o100n ? 0o100755 : 0o100644;
  return {
    ctimeS: Number(st.ctimeNs / 1_000_000_000n) >>> 0,
    ctimeNs: Number(st.ctimeNs % 1_000_000_000n),
    mtimeS: Number(st.mtimeNs / 1_000_000_000n) >>> 0,
    mtimeNs: Number(st.mtimeNs % 1_000_000_000n),
    ino: Number(st.ino & 0xffffffffn),
    size: Number(st.size & 0xffffffffn),
    mode,
  };
}

export function sameStat(a: StatKey, b: StatKey): boolean {
  return (
    a.mtimeS === b.mtimeS &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeS === b.ctimeS &&
    a.ctimeNs === b.ctimeNs &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mode === b.mode
  );
}

/** The later of a stat's change and modification times, in ns. */
export function changedAtNs(s: StatKey): bigint {
  const m = BigInt(s.mtimeS) * 1_000_000_000n + BigInt(s.mtimeNs);
  const c = BigInt(s.ctimeS) * 1_000_000_000n + BigInt(s.ctimeNs);
  return m > c ? m : c;
}
