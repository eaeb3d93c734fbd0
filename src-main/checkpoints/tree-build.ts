// The workspace's tree kept in memory and named in-process (as `git write-tree` would, byte for byte): a step's fast
// capture (fast-capture.ts) changes a few files, and only the trees on their paths are hashed again; those to write
// are handed to the object worker (object-writer.ts).
import { type ObjectDb, objectName } from './loose-object';

interface FileNode {
  kind: 'file';
  mode: number;
  oid: string;
}

interface DirNode {
  kind: 'dir';
  children: Map<string, FileNode | DirNode>;
  /** The tree's name while nothing below changed. */
  oid: string | null;
}

const newDir = (): DirNode => ({ kind: 'dir', children: new Map(), oid: null });

export class TreeBuilder {
  private readonly root = newDir();
  /** The trees named with `write` since the last drain, to be written before their name is used. */
  private unwritten: Buffer[] = [];

  constructor(private readonly db: ObjectDb) {}

  /** Sets (or with `null`, removes) the file at a workspace-relative path. */
  set(p: string, file: { mode: number; oid: string } | null): void {
    const parts = p.split('/');
    const name = parts.pop() as string;
    const trail: DirNode[] = [this.root];
    let dir = this.root;
    for (const part of parts) {
      let next = dir.children.get(part);
      if (next?.kind !== 'dir') {
        if (file === null) return;
        next = newDir();
        dir.children.set(part, next);
      }
      dir = next;
      trail.push(dir);
    }
    if (file === null) dir.children.delete(name);
    else dir.children.set(name, { kind: 'file', ...file });
    for (const d of trail) d.oid = null;
  }

  /**
   * The root tree's name. `write`: the trees changed since the last call are kept to be written (drain); without,
   * they are only named — for trees known to be stored already (the tree git just wrote, checked against the name).
   */
  tree(write: boolean): string {
    return this.dirOid(this.root, write) ?? objectName(this.db.format, 'tree', Buffer.alloc(0));
  }

  /** A folder's tree name, null for a folder with no file below it (git leaves it out). */
  private dirOid(dir: DirNode, write: boolean): string | null {
    if (dir.oid !== null) return dir.oid;
    const rows: { key: Buffer; entry: Buffer }[] = [];
    for (const [name, node] of dir.children) {
      const oid = node.kind === 'file' ? node.oid : this.dirOid(node, write);
      if (oid === null) continue;
      const mode = node.kind === 'file' ? node.mode.toString(8) : '40000';
      const nameBytes = Buffer.from(name);
      rows.push({
        // Git orders a folder as if its name ended with `/`.
        key: node.kind === 'dir' ? Buffer.concat([nameBytes, Buffer.from('/')]) : nameBytes,
        entry: Buffer.concat([Buffer.from(`${mode} `), nameBytes, Buffer.from([0]), Buffer.from(oid, 'hex')]),
      });
    }
    if (rows.length === 0) return null;
    rows.sort((a, b) => Buffer.compare(a.key, b.key));
    const body = Buffer.concat(rows.map((r) => r.entry));
    dir.oid = objectName(this.db.format, 'tree', body);
    if (write) this.unwritten.push(body);
    return dir.oid;
  }

  /** The trees to write since the last drain (a builder whose trees could not be written is dropped). */
  drain(): { type: 'tree'; body: Buffer }[] {
    const trees = this.unwritten.map((body) => ({ type: 'tree' as const, body }));
    this.unwritten = [];
    return trees;
  }
}
