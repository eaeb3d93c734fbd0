// Helper process of process-run.test.ts (not product code): a host that runs one command through runProcess and
// prints "running" once it has started, so the test can SIGKILL it while the command runs.
// `process-run-host.child.ts <cwd> <die-with-host: yes|no> <command>`.
import { runProcess } from './process-run';

const [cwd, dieWithHost, command] = process.argv.slice(2);
if (!cwd || !dieWithHost || !command) throw new Error('usage: process-run-host.child.ts <cwd> <yes|no> <command>');
void runProcess({
  file: '/bin/sh',
  args: ['-c', command],
  cwd,
  env: process.env,
  timeoutMs: 60_000,
  dieWithHost: dieWithHost === 'yes',
}).then((r) => process.stdout.write(`ended ${JSON.stringify(r)}\n`));
process.stdout.write('running\n');
