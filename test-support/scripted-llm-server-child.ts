// The child process of ScriptedLlmServerHost: serves scripted servers on request, answers over IPC.
import { type ScriptedLlmServer, startScriptedLlmServer } from './scripted-llm-server';
import type { HostReply, HostRequest } from './scripted-llm-server-host';

const servers = new Map<number, ScriptedLlmServer>();
const reply = (message: HostReply) => process.send?.(message);

process.on('message', (request: HostRequest) => {
  void handle(request).catch((error: unknown) => reply({ id: request.id, op: 'failed', message: String(error) }));
});
process.on('disconnect', () => process.exit(0));

async function handle(request: HostRequest): Promise<void> {
  if (request.op === 'serve') {
    const server = await startScriptedLlmServer({ ...request.options, script: request.script });
    servers.set(request.id, server);
    reply({ id: request.id, op: 'serving', baseURL: server.baseURL });
    return;
  }
  const server = servers.get(request.id);
  if (!server) throw new Error(`no server ${request.id}`);
  servers.delete(request.id);
  const problems: string[] = [];
  try {
    server.expectEmpty();
  } catch (error) {
    problems.push((error as Error).message);
  }
  await server.close();
  reply({
    id: request.id,
    op: 'closed',
    rawBodies: server.requests.map((r) => r.rawBody),
    arrivals: server.requests.map((r) => r.receivedAt),
    replies: server.requests.map((r) => r.repliedAt ?? null),
    problems,
  });
}
