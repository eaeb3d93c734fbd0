// The child side of the stand-in's utilityProcess (electron-stand-in.ts): gives this Node child the `parentPort` an
// Electron utility process has — 'message' events of `{ data }` and `postMessage` — over the fork's IPC channel, then
// loads the entry named in argv (messages wait for its listener, as Electron queues them). The child leaves when its parent does, as a utility process does. Tests only.
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';

const entry = process.argv[2];
if (!entry) throw new Error('usage: utility-process-child.ts <entry>');
const parentPort = Object.assign(new EventEmitter(), {
  postMessage(message: unknown) {
    process.send?.(message);
  },
});
// As in Electron, messages wait until the entry listens (it is loaded after the first ones may have come).
const waiting: unknown[] = [];
process.on('message', (data) => {
  if (parentPort.listenerCount('message') > 0) parentPort.emit('message', { data, ports: [] });
  else waiting.push(data);
});
parentPort.on('newListener', (event: string) => {
  if (event === 'message')
    setImmediate(() => {
      for (const data of waiting.splice(0)) parentPort.emit('message', { data, ports: [] });
    });
});
process.on('disconnect', () => process.exit(0));
Object.defineProperty(process, 'parentPort', { value: parentPort });
import(pathToFileURL(entry).href).catch((error: unknown) => {
  console.error('the utility process entry failed to load:', error);
  process.exit(1);
});
