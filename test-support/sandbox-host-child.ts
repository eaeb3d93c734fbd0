// Test support: a process that opens the OS sandbox and runs one command in it (which starts the library's network
// bridges), prints "ready", and then waits to be signalled: a stand-in for a host, to see what its end leaves behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSandbox } from '../src-main/tools/os-sandbox';

async function main(): Promise<void> {
  const choice = openSandbox([]);
  if (!choice.ok) throw new Error(choice.reason);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bridge-child-'));
  const wrapped = await choice.sandbox.wrap('true', workspace, { writable: [workspace] });
  wrapped.release();
  console.log('ready');
  setInterval(() => {}, 60_000);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
