// The engine bench's scripted model servers: in a child process of their own (as a model server is, so this process
// is not charged for the server's work), or with --in-process in this one.
import { type ScriptedStep, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { ScriptedLlmServerHost } from '../../test-support/scripted-llm-server-host';
import { options } from './options';

/**
 * What a server received: each request's body as sent and its arrival (epoch ms, to a fraction of a ms), and when its
 * streamed reply's last byte left (null: none was streamed).
 */
export interface Served {
  bodies: string[];
  arrivals: number[];
  replies: (number | null)[];
}

export interface BenchServer {
  baseURL: string;
  /** Closes the server. Throws when the script was not played exactly. */
  close(): Promise<Served>;
}

let host: ScriptedLlmServerHost | undefined;

export async function serve(script: ScriptedStep[], ttftMs = 0): Promise<BenchServer> {
  if (options.inProcess) {
    const server = await startScriptedLlmServer({ script, ttftMs });
    return {
      baseURL: server.baseURL,
      close: async () => {
        await server.close();
        server.expectEmpty();
        return {
          bodies: server.requests.map((r) => r.rawBody),
          arrivals: server.requests.map((r) => r.receivedAt),
          replies: server.requests.map((r) => r.repliedAt ?? null),
        };
      },
    };
  }
  host ??= await ScriptedLlmServerHost.start();
  const server = await host.serve(script, { ttftMs });
  return {
    baseURL: server.baseURL,
    close: async () => {
      const { rawBodies, arrivals, replies, problems } = await server.close();
      if (problems.length > 0) throw new Error(`scripted-llm-server: ${problems.join('; ')}`);
      return { bodies: rawBodies, arrivals, replies };
    },
  };
}

export async function stopServers(): Promise<void> {
  await host?.stop();
  host = undefined;
}
