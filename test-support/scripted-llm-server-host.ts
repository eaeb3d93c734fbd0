// Scripted servers in a child process of their own, as a model server is: the process under test is not charged for
// the server's work, and what it does between a reply and its next request can overlap the server's. Used by the
// benchmarks; the scripts are data (no functions), and each server answers what it recorded when it is closed.
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { ScriptedLlmServerOptions, ScriptedStep } from './scripted-llm-server';

/** What crosses into the child besides the script: options that are data. */
export type HostedServerOptions = Pick<ScriptedLlmServerOptions, 'ttftMs'>;

/**
 * What a closed server saw: each request's body as sent and when it arrived (epoch ms, to a fraction of a ms), and
 * what went wrong with the script (expectEmpty).
 */
export interface ServedRecord {
  rawBodies: string[];
  arrivals: number[];
  /** When each streamed reply's last byte was written (null: not a streamed reply). */
  replies: (number | null)[];
  problems: string[];
}

export interface HostedServer {
  baseURL: string;
  close(): Promise<ServedRecord>;
}

export type HostRequest =
  | { id: number; op: 'serve'; script: ScriptedStep[]; options: HostedServerOptions }
  | { id: number; op: 'close' };
export type HostReply =
  | { id: number; op: 'serving'; baseURL: string }
  | ({ id: number; op: 'closed' } & ServedRecord)
  | { id: number; op: 'failed'; message: string };

export class ScriptedLlmServerHost {
  private next = 1;
  private readonly waiting = new Map<number, (reply: HostReply) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: HostReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    const fail = (message: string) => {
      for (const settle of this.waiting.values()) settle({ id: 0, op: 'failed', message });
      this.waiting.clear();
    };
    child.on('exit', (code, signal) => fail(`host exited (${signal ?? code})`));
    child.on('error', (error) => fail(`host failed: ${error.message}`));
  }

  /** Forks the host (TypeScript through tsx, as the tests and benchmarks run). */
  static async start(): Promise<ScriptedLlmServerHost> {
    const child = fork(path.join(__dirname, 'scripted-llm-server-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    return new ScriptedLlmServerHost(child);
  }

  /** A new server on 127.0.0.1 playing `script`, one step per request. */
  async serve(script: ScriptedStep[], options: HostedServerOptions = {}): Promise<HostedServer> {
    const id = this.next++;
    const reply = await this.ask({ id, op: 'serve', script, options });
    if (reply.op !== 'serving')
      throw new Error(`scripted server host: ${reply.op === 'failed' ? reply.message : reply.op}`);
    let closed: Promise<ServedRecord> | undefined;
    return {
      baseURL: reply.baseURL,
      close: () =>
        (closed ??= this.ask({ id, op: 'close' }).then((r) => {
          if (r.op !== 'closed') throw new Error(`scripted server host: ${r.op === 'failed' ? r.message : r.op}`);
          return { rawBodies: r.rawBodies, arrivals: r.arrivals, replies: r.replies, problems: r.problems };
        })),
    };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }

  private ask(request: HostRequest): Promise<HostReply> {
    return new Promise((resolve) => {
      this.waiting.set(request.id, resolve);
      this.child.send(request);
    });
  }
}
