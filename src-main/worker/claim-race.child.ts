// Helper process of claim.test.ts (not product code): waits for "go" on stdin, then claims and completes jobs from a
// shared DB file through the real repository until none is claimable, and prints the ids it claimed as JSON.
import { Store } from '../db/store';

const [file, workerId] = process.argv.slice(2);
if (!file || !workerId) throw new Error('usage: claim-race.child.ts <db file> <worker id>');
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
  }
  store.close();
  process.stdout.write(`${JSON.stringify(claimed)}\n`, () => process.exit(0));
});
