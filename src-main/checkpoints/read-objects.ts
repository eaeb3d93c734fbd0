// Reads git objects in one `git cat-file --batch`: every blob a restore will write is read before any is written.
import type { StoreGit } from './store-git';

export interface GitObject {
  type: string;
  content: Buffer;
}

/** The objects by name; a missing or unreadable one is absent from the map (the caller names the file). */
export async function readObjects(git: StoreGit, names: readonly string[]): Promise<Map<string, GitObject>> {
  const found = new Map<string, GitObject>();
  if (names.length === 0) return found;
  const unique = [...new Set(names)];
  const out = await git.bytes(['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
  let at = 0;
  for (const name of unique) {
    const eol = out.indexOf(10, at);
    if (eol === -1) break;
    const header = out.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) continue; // `<name> missing` (or ambiguous): nothing follows it
    const size = Number(m[3]);
    found.set(name, { type: m[2] as string, content: out.subarray(at, at + size) });
    at += size + 1;
  }
  return found;
}
