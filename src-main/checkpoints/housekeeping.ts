// Housekeeping of the checkpoint files in the data dir: a task's index removed with the task, the disk they use
// (shown in Settings), and gc of the private repositories of plain folders (never of the person's own repository,
// where the objects of dropped refs go at the person's own next gc).
import fs from 'node:fs';
import path from 'node:path';
import { runHostGit } from '../workspace/host-git';
import { checkpointsDir, plainReposDir, taskIndexFile } from './locate';

export function removeTaskIndex(dataDir: string, taskId: string): void {
  const file = taskIndexFile(dataDir, taskId);
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}.lock`, { force: true });
}

/** Bytes of every file below <dataDir>/checkpoints. */
export function checkpointDiskUsage(dataDir: string): number {
  let total = 0;
  const walk = (dir: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.isFile()) {
        try {
          total += fs.statSync(p).size;
        } catch {}
      }
    }
  };
  walk(checkpointsDir(dataDir));
  return total;
}

/** `git gc --prune=now` in each private repository; the names of those that failed. */
export async function gcCheckpointStores(dataDir: string): Promise<{ collected: number; failed: string[] }> {
  const dir = plainReposDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.git'));
  } catch {
    return { collected: 0, failed: [] };
  }
  const failed: string[] = [];
  for (const name of names) {
    const gitDir = path.join(dir, name);
    const r = await runHostGit(['gc', '--prune=now', '--quiet'], { cwd: gitDir, env: { GIT_DIR: gitDir } });
    if (r.code !== 0) failed.push(name);
  }
  return { collected: names.length - failed.length, failed };
}
