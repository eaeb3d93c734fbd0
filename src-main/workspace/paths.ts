// Where things live in the data dir: the DB, bridge.json and host.json, runtime dirs (runs/{taskId}) and ephemeral workspaces.
import path from 'node:path';

export const dbFile = (dataDir: string) => path.join(dataDir, 'maestro.db');
export const bridgeFile = (dataDir: string) => path.join(dataDir, 'bridge.json');
export const hostAddressFile = (dataDir: string) => path.join(dataDir, 'host.json');
export const runtimeDir = (dataDir: string, taskId: string) => path.join(dataDir, 'runs', taskId);
export const ephemeralWorkspace = (dataDir: string, taskId: string) => path.join(dataDir, 'workspaces', taskId);
