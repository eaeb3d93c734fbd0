// bridge.json: how outside callers find the running bridge ({ url, token, pid }), readable by the owner only.
import fs from 'node:fs';
import { writeFileAtomic } from '../workspace/atomic-write';
import { bridgeFile } from '../workspace/paths';

export interface BridgeInfo {
  url: string;
  token: string;
  pid: number;
}

export function writeBridgeFile(dataDir: string, info: BridgeInfo): string {
  const file = bridgeFile(dataDir);
  writeFileAtomic(file, `${JSON.stringify(info, null, 2)}\n`, 0o600);
  fs.chmodSync(file, 0o600);
  return file;
}

/** Removes bridge.json if it still describes this process. */
export function removeBridgeFile(dataDir: string, pid = process.pid): void {
  const file = bridgeFile(dataDir);
  try {
    if ((JSON.parse(fs.readFileSync(file, 'utf8')) as BridgeInfo).pid === pid) fs.rmSync(file);
  } catch {
    // Already gone or not ours.
  }
}
