// One file's unified diff between two snapshots, with its added/removed line counts; a binary file has no diff.
// The person's diff drivers (external diff, textconv) are not run.
import type { StoreGit } from './store-git';

export async function fileDiff(
  git: StoreGit,
  from: string,
  to: string,
  file: string,
): Promise<{ diff: string; binary: boolean; added: number; removed: number }> {
  const out = await git.run(
    [
      'diff-tree',
      '-p',
      '--numstat',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      from,
      to,
      '--',
      file,
    ],
    { env: { GIT_LITERAL_PATHSPECS: '1' } },
  );
  const stats = out.slice(0, out.indexOf('\n\n') === -1 ? out.length : out.indexOf('\n\n')).split('\n');
  let added = 0;
  let removed = 0;
  let binary = false;
  for (const line of stats) {
    const [a, r] = line.split('\t');
    if (a === undefined || r === undefined) continue;
    if (a === '-' || r === '-') binary = true;
    else {
      added += Number(a);
      removed += Number(r);
    }
  }
  const patchAt = out.indexOf('diff --git ');
  const diff = binary || patchAt === -1 ? '' : out.slice(patchAt);
  return { diff, binary, added, removed };
}
