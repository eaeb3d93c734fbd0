// Seeds many tasks into a data dir from another process (the browser specs, whose TypeScript project does not reach
// src-main): `npx tsx test-support/seed-tasks-cli.ts DATA_DIR WORKSPACE COUNT [STATUS] [FROM_MS]`. Task i (0 = the
// oldest) is titled `Old STATUS task #i.`; prints the ids, oldest first, as JSON.
import { Store } from '../src-main/db/store';
import { dbFile } from '../src-main/workspace/paths';
import { JobStatus } from '../src-shared/entities';
import { seedTasks } from './task-seed';

const [dataDir, workspacePath, count, status = 'succeeded', from] = process.argv.slice(2);
if (!dataDir || !workspacePath || !count) {
  console.error('usage: tsx test-support/seed-tasks-cli.ts DATA_DIR WORKSPACE COUNT [STATUS] [FROM_MS]');
  process.exit(2);
}
const store = Store.open(dbFile(dataDir));
const ids = seedTasks(store, Number(count), {
  status: JobStatus.parse(status),
  workspacePath,
  title: (i) => `Old ${status} task #${i}.`,
  ...(from ? { from: Number(from) } : {}),
});
store.close();
console.log(JSON.stringify(ids));
