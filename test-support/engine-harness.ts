// Test support for the engine: a Maestro on a temp data dir whose engine talks to a scripted OpenAI-compatible
// server through the real openai SDK, and helpers to wait for a job to settle.

import { afterEach } from 'vitest';
import { z } from 'zod';
import type { Maestro } from '../src-main/app/create-maestro';
import { reflectionModeOf } from '../src-main/app/host-worker';
import { loadSettings } from '../src-main/app/settings-file';
import { createEngine } from '../src-main/engine/engine';
import { DEFAULT_LIMITS, type EngineOptions } from '../src-main/engine/job-run';
import { jobJournals } from '../src-main/jobs/journal';
import type { ReflectionMode } from '../src-main/jobs/reflection';
import type { OutagePolicy } from '../src-main/jobs/retry-policy';
import type { SandboxChoice } from '../src-main/tools/os-sandbox';
import type { AnyToolDef } from '../src-main/tools/types';
import type { ProviderKind } from '../src-shared/contract/profiles';
import type { Job, JobStatus } from '../src-shared/entities';
import type { MaestroEvent } from '../src-shared/events';
import {
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedLlmServer,
  type ScriptedStep,
  startScriptedLlmServer,
} from './scripted-llm-server';
import { acceptWorkspaceSettings, tempDir, testMaestro } from './temp-maestro';

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

export interface Harness {
  maestro: Maestro;
  server: ScriptedLlmServer;
  events: MaestroEvent[];
  workspace: string;
  dataDir: string;
  createTask(instruction: string, extra?: Record<string, unknown>): { taskId: string; jobId: string };
  /** Resolves when the job reaches one of `statuses`. */
  waitFor(jobId: string, statuses: readonly JobStatus[], timeoutMs?: number): Promise<Job>;
}

export const SETTLED: readonly JobStatus[] = [
  'succeeded',
  'failed',
  'cancelled',
  'waiting_human',
  'waiting_subtasks',
  'retry',
];

export async function engineHarness(
  script: ScriptEntry[],
  opts: {
    tools?: AnyToolDef[];
    /** Use the real built-in tools under the workspace's policy instead of `tools`. */
    policyTools?: boolean;
    options?: Partial<EngineOptions>;
    workspace?: string;
    /** The host's default folder for a task given none (default `workspace`; null: such a task gets a scratch folder). */
    defaultWorkspace?: string | null;
    dataDir?: string;
    server?: ScriptedLlmServer;
    /** Backoff of the Worker's retries (default one minute: a retried job stays in retry during a test). */
    retryDelayMs?: number;
    /** The LLM Router for tasks created without a piece (default off). */
    pieceRouter?: boolean;
    /** The env profile's kind (MAESTRO_LLM_KIND; default generic). */
    kind?: ProviderKind;
    /** How the Worker waits out an unreachable model server (default: the product's, seconds to minutes). */
    outage?: OutagePolicy;
    /** The OS sandbox for commands and stdio MCP servers (default none: commands ask). */
    sandbox?: SandboxChoice;
    /**
     * Whether a person accepted the workspace's settings files (`.maestro/*`) as the test wrote them, just before each
     * createTask (default true: what a test sets up is what applies). false: they stay as the app finds them, unaccepted.
     */
    acceptSettings?: boolean;
    /** More of the env profile's variables (MAESTRO_LLM_MEDIA, say). */
    env?: Record<string, string>;
    /** Take checkpoints as the app does (default off: most engine tests are not about them). */
    checkpoints?: boolean;
    /**
     * When a Reflection job follows an ended job (P2.08). Default `off`: a Reflection would take the scripted replies
     * meant for the test's own jobs. `settings`: as the data dir's settings say, as in the app.
     */
    reflection?: ReflectionMode | 'settings';
  } = {},
): Promise<Harness> {
  const server = opts.server ?? (await startScriptedLlmServer({ script }));
  if (!opts.server) servers.push(server);
  const workspace = opts.workspace ?? tempDir('maestro-ws-');
  const dataDir = opts.dataDir ?? tempDir();
  const maestro = testMaestro({
    dataDir,
    defaultWorkspace: opts.defaultWorkspace === undefined ? workspace : opts.defaultWorkspace,
    pieceRouter: opts.pieceRouter ?? false,
    env: {
      MAESTRO_LLM_BASE_URL: server.baseURL,
      MAESTRO_LLM_MODEL: 'scripted',
      MAESTRO_LLM_API_KEY: 'sk-test',
      ...(opts.kind ? { MAESTRO_LLM_KIND: opts.kind } : {}),
      ...opts.env,
    },
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    engine: ({ store, profiles, pieces, sandbox, readSettings, agentTokens, sshKeys, checkpoints }) =>
      createEngine({
        journals: jobJournals(store, () => loadSettings(dataDir).settings.lessons),
        profiles,
        readSettings,
        agentTokens,
        sshKeys,
        pieceExists: (id, ws) => pieces.get(id, ws) !== undefined,
        ...(opts.policyTools ? {} : { tools: () => opts.tools ?? [] }),
        options: {
          limits: DEFAULT_LIMITS,
          streamIntervalMs: 5,
          sandbox,
          ...(opts.checkpoints ? { checkpoints } : {}),
          ...opts.options,
        },
        llm: { retry: { baseDelayMs: 5, maxDelayMs: 20 }, log: () => {} },
      }),
    worker: {
      concurrency: 1, // one job at a time: scripted replies are consumed in a known order
      pollIntervalMs: 10,
      heartbeatIntervalMs: 50,
      // `settings`: as the app decides (the task's space, then Settings), over the maestro made here.
      reflectionMode: (job) =>
        opts.reflection === 'settings'
          ? reflectionModeOf({ env: {} }, maestro.store, dataDir)(job)
          : (opts.reflection ?? 'off'),
      retry: {
        maxAttempts: 3,
        baseDelayMs: opts.retryDelayMs ?? 60_000,
        maxDelayMs: opts.retryDelayMs ?? 60_000,
        ...(opts.outage ? { outage: opts.outage } : {}),
      },
    },
  });
  const events: MaestroEvent[] = [];
  maestro.store.subscribe((e) => events.push(e));
  maestro.start();

  return {
    maestro,
    server,
    events,
    workspace,
    dataDir,
    createTask(instruction, extra = {}) {
      const folder = typeof extra.workspacePath === 'string' ? extra.workspacePath : workspace;
      if (opts.acceptSettings !== false) acceptWorkspaceSettings(maestro, folder);
      const { task, job } = maestro.invoke('createTask', { instruction, ...extra });
      return { taskId: task.id, jobId: job.id };
    },
    waitFor(jobId, statuses, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const job = maestro.store.jobs.get(jobId);
          if (job && statuses.includes(job.status)) {
            clearInterval(timer);
            clearTimeout(timeout);
            resolve(job);
          }
        };
        const timer = setInterval(check, 5);
        const timeout = setTimeout(() => {
          clearInterval(timer);
          reject(
            new Error(
              `job ${jobId} did not reach ${statuses.join('/')}; it is ${maestro.store.jobs.get(jobId)?.status}`,
            ),
          );
        }, timeoutMs);
        check();
      });
    },
  };
}

/** A scripted reply that calls one tool. */
export const call = (name: string, args: Record<string, unknown> | string, id?: string): ScriptedStep => ({
  toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }],
});
export const complete = (message = 'done', status = 'success'): ScriptedStep => call('complete', { status, message });
export const transition = (next: string, reason?: string): ScriptedStep =>
  call('transition', reason ? { next, reason } : { next });

/**
 * A script entry whose request reports its arrival at the server (`arrived`), its reply still to come: a test acts
 * while the model is answering (`delayMs` holds the reply) instead of sleeping and hoping the request is in flight.
 */
export function arrival(step: ScriptedStep): { entry: ScriptEntry; arrived: Promise<RecordedRequest> } {
  let report: (request: RecordedRequest) => void = () => {};
  const arrived = new Promise<RecordedRequest>((resolve) => {
    report = resolve;
  });
  return {
    entry: (request) => {
      report(request);
      return step;
    },
    arrived,
  };
}

/** A test double of a tool that needs approval: its review asks first; it runs only once a person approved. */
export function approvalTool(ran: string[] = []): AnyToolDef {
  return {
    name: 'run_command',
    description: 'Runs a command after approval.',
    parameters: z.strictObject({ command: z.string() }),
    readOnly: false,
    review: ({ command }: { command: string }) => ({ kind: 'ask', summary: `Run \`${command}\`` }),
    async execute({ command }: { command: string }) {
      ran.push(command);
      return { kind: 'result', ok: true, content: `exit 0\n${command} output` };
    },
  } as AnyToolDef;
}
