// The object worker's thread (started by object-writer.ts): runs each request it is sent (object-ops.ts) and answers
// with its result or its error, so that no file is read, compressed or written on the host's main thread.
import { parentPort } from 'node:worker_threads';
import { type ObjectRequest, runObjectRequest } from './object-ops';

parentPort?.on('message', ({ id, request }: { id: number; request: ObjectRequest }) => {
  try {
    parentPort?.postMessage({ id, result: runObjectRequest(request) });
  } catch (error) {
    parentPort?.postMessage({ id, error: (error as Error).message ?? String(error) });
  }
});
