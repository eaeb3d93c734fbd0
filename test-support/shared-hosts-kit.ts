// Test support for several real headless hosts on one PostgreSQL database (src-main/app/shared-hosts*.test.ts):
// hosts started on the file's database and a scripted model, stopped with their models after each test.
import { afterEach, vi } from 'vitest';
import { type HostProcess, startHostProcess, stopHosts } from './headless-process';
import { pgUrlForTest } from './pg-test-db';
import type { ScriptedLlmServer, ScriptedStep } from './scripted-llm-server';
import { tempDir } from './temp-maestro';

// Three data dirs of a thousand tasks each (shared-hosts.test.ts) take a while to stop and remove.
vi.setConfig({ hookTimeout: 60_000 });

export const complete = (message: string): ScriptedStep => ({
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message } }],
});

const hosts: HostProcess[] = [];
/** The scripted models of the test, closed after it. */
export const servers: ScriptedLlmServer[] = [];
let url: Promise<string> | undefined;

afterEach(async () => {
  await stopHosts(hosts);
  for (const server of servers.splice(0)) await server.close();
});

/** The database every host of this test file shares, made at the first call. */
export function sharedDatabaseUrl(): Promise<string> {
  url ??= pgUrlForTest().then((created) => created as string);
  return url;
}

export async function sharedHosts(
  names: string[],
  server: ScriptedLlmServer,
  workspace: string,
  lease = 30,
  /** More flags for every host, e.g. --serves. */
  flags: string[] = [],
) {
  return Promise.all(names.map((name) => sharedHost(name, tempDir(), server, workspace, lease, flags)));
}

/** One host of the shared database on `dataDir` (a host started again on its own data dir). */
export async function sharedHost(
  name: string,
  dataDir: string,
  server: ScriptedLlmServer,
  workspace: string,
  lease = 30,
  flags: string[] = [],
): Promise<HostProcess> {
  const host = await startHostProcess(
    dataDir,
    workspace,
    {
      MAESTRO_LLM_BASE_URL: server.baseURL,
      MAESTRO_LLM_API_KEY: 'sk-test',
      MAESTRO_LLM_MODEL: 'scripted',
      MAESTRO_DATABASE_URL: await sharedDatabaseUrl(),
      MAESTRO_LEASE_SECONDS: String(lease),
    },
    ['--host-name', name, '--concurrency', '8', ...flags],
  );
  hosts.push(host);
  return host;
}
