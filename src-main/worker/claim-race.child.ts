// Helper process of claim.test.ts (not product code): waits for "go" on stdin, then claims and completes jobs from a
// shared DB file through the real repository until none is claimable, and prints the ids it claimed as JSON. After
// its first claim it waits until the other process has claimed one too, so the two really race on a loaded machine.
import { Store } from '../db/store';

const [file, workerId, otherId] = process.argv.slice(2);
if (!file || !workerId || !otherId) throw new Error('usage: claim-race.child.ts <db file> <worker id> <other id>');
const store = Store.open(file);
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  const claimed: string[] = [];
  for (;;) {
    const job = store.jobs.claimNext({ workerId, profiles: null });
    if (!job) break;
    claimed.push(job.id);
    if (!store.jobs.transition(job.id, 'running', 'succeeded', { result: workerId }, { owner: workerId })) {
      throw new Error(`lost ${job.id} after claiming it`);
    }
    if (claimed.length === 1) waitFor(otherId);
  }
  store.close();
  process.stdout.write(`${JSON.stringify(claimed)}\n`, () => process.exit(0));
});

/** Blocks (1 ms at a time) until `other` has claimed a job, or nothing is left to claim. */
function waitFor(other: string): void {
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const seen = store.db.prepare('SELECT 1 FROM jobs WHERE worker_id = ? OR result = ? LIMIT 1');
  const left = store.db.prepare("SELECT 1 FROM jobs WHERE status IN ('queued', 'retry') LIMIT 1");
  while (!seen.get(other, other) && left.get()) Atomics.wait(tick, 0, 0, 1);
}
