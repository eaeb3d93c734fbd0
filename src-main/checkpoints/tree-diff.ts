// What differs between two snapshots: `git diff-tree --raw -z` read into entries (modes and blobs of both sides),
// and those entries as the CheckpointFile list the chat shows.
import type { CheckpointFile } from '../../src-shared/checkpoints';
import type { StoreGit } from './store-git';

export interface TreeEntryChange {
  status: 'A' | 'M' | 'D' | 'R' | 'T';
  path: string;
  /** A rename's old path. */
  from?: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}

/** Mode of a gitlink (a submodule's commit): never a file the store writes or lists. */
export const GITLINK = '160000';

export function parseRawDiff(out: string): TreeEntryChange[] {
  const parts = out.split('\0');
  const entries: TreeEntryChange[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++];
    if (!head) continue;
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([AMDRTC])\d*$/.exec(head);
    if (!m) throw new Error(`checkpoints: unexpected git diff-tree output ${JSON.stringify(head.slice(0, 80))}`);
    const [, oldMode, newMode, oldBlob, newBlob, status] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (status === 'R' || status === 'C') {
      const from = parts[i++] ?? '';
      const to = parts[i++] ?? '';
      entries.push({ status: 'R', path: to, from, oldMode, newMode, oldBlob, newBlob });
    } else {
      const p = parts[i++] ?? '';
      entries.push({ status: status as TreeEntryChange['status'], path: p, oldMode, newMode, oldBlob, newBlob });
    }
  }
  return entries.filter((e) => e.oldMode !== GITLINK && e.newMode !== GITLINK);
}

/** Raw differences from `from` to `to` (commits or trees); `renames` pairs deleted and added files. */
export async function diffTrees(
  git: StoreGit,
  from: string,
  to: string,
  options: { renames: boolean; paths?: readonly string[] },
): Promise<TreeEntryChange[]> {
  const args = ['diff-tree', '-r', '-z', '--raw', '--no-abbrev', options.renames ? '-M' : '--no-renames', from, to];
  if (options.paths) args.push('--', ...options.paths);
  const out = await git.run(args, { env: { GIT_LITERAL_PATHSPECS: '1' } });
  return parseRawDiff(out);
}

export function toCheckpointFiles(entries: readonly TreeEntryChange[]): CheckpointFile[] {
  return entries.map((e): CheckpointFile => {
    switch (e.status) {
      case 'A':
        return { path: e.path, change: 'added' };
      case 'D':
        return { path: e.path, change: 'deleted' };
      case 'M':
      case 'T':
        return { path: e.path, change: 'modified' };
      case 'R':
        return { path: e.path, change: 'renamed', from: e.from };
      default: {
        const never: never = e.status;
        throw new Error(`checkpoints: unknown change ${String(never)}`);
      }
    }
  });
}
