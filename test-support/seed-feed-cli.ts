// Seeds a long conversation into a data dir from another process (the browser specs, whose TypeScript project does
// not reach src-main): `npx tsx test-support/seed-feed-cli.ts DATA_DIR WORKSPACE TITLE ENTRIES`. Prints the task's
// id with its first and last comment ids as JSON.
import { seedFeedTask } from './seed-feed';

const [dataDir, workspace, title, entries] = process.argv.slice(2);
if (!dataDir || !workspace || !title || !entries) {
  console.error('usage: tsx test-support/seed-feed-cli.ts DATA_DIR WORKSPACE TITLE ENTRIES');
  process.exit(2);
}
const seeded = seedFeedTask(dataDir, workspace, title, Number(entries));
console.log(
  JSON.stringify({
    taskId: seeded.taskId,
    title: seeded.title,
    firstId: seeded.commentIds[0],
    lastId: seeded.commentIds.at(-1),
    count: seeded.commentIds.length,
  }),
);
