// a2a_send: a piece delegates to a remote agent of the workspace's agents.json over the Agent2Agent protocol, through
// the official SDK's client (1.0, and 0.3 agents through its compat layer). A message leaves the machine, so every call
// asks a person first unless the policy allows a2a_send. The agent's token (saved in MAESTRO, never in a prompt, an
// argument, an event or the DB) goes only to the agent's own origin, whatever its card says the endpoint is.
import { randomUUID } from 'node:crypto';
import { GetTaskRequest, type Message, SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { z } from 'zod';
import { stateName } from '../a2a/task-view';
import type { SettingsText } from '../workspace/accepted-settings';
import { A2A_SEND_TOOL, A2A_WAIT_TOOL } from './names';
import { fail, ok } from './outcome';
import { loadAgentsConfig, type RemoteAgentConfig } from './remote-agents';
import type { AnyToolDef, ToolContext, ToolResult } from './types';

/** The tokens people saved for remote agents, per workspace and agent (sealed in the data dir). */
export interface AgentTokens {
  /** The token in clear; null when none is saved. Throws when one is saved but cannot be opened. */
  open(workspacePath: string, agent: string): string | null;
  /** The agent refused the token (401/403): the app shows it as rejected until a call goes through. */
  markRejected(workspacePath: string, agent: string): void;
  markAccepted(workspacePath: string, agent: string): void;
}

interface SendArgs {
  agent: string;
  message: string;
  task_id?: string;
  context_id?: string;
}

/** The a2a_send tool for the workspace's remote agents in force; none without any. Throws on a broken agents.json. */
export function a2aSendTools(workspacePath: string, read: SettingsText, tokens: AgentTokens): AnyToolDef[] {
  const agents = loadAgentsConfig(workspacePath, read);
  return agents.length === 0
    ? []
    : [a2aSendTool(agents, workspacePath, tokens), a2aWaitTool(agents, workspacePath, tokens)];
}

interface WaitArgs {
  agent: string;
  task_id: string;
  timeout_seconds?: number;
}

/**
 * a2a_wait: waits for a remote task an earlier a2a_send left running (its id is in the conversation, which the journal
 * keeps across a park or a restart). Nothing of the job leaves the machine but the task id, so it asks no one.
 */
export function a2aWaitTool(
  agents: readonly RemoteAgentConfig[],
  workspacePath: string,
  tokens: AgentTokens,
): AnyToolDef {
  const byName = new Map(agents.map((a) => [a.name, a]));
  const names = agents.map((a) => a.name) as [string, ...string[]];
  return {
    name: A2A_WAIT_TOOL,
    description:
      'Waits for a remote task that a2a_send left running (it named the task id) and answers with its result, the ' +
      'question it asks, or that it is still running.',
    parameters: z.strictObject({
      agent: z.enum(names).describe('The remote agent the task runs on.'),
      task_id: z.string().min(1).describe("The agent's task to wait for."),
      timeout_seconds: z
        .number()
        .int()
        .min(1)
        .max(MAX_WAIT_SECONDS)
        .optional()
        .describe("How long to wait at most (default: the agent's timeout)."),
    }),
    readOnly: true,
    needs: ['network'],
    execute: (args: WaitArgs, ctx) =>
      call(byName.get(args.agent) as RemoteAgentConfig, args, ctx, workspacePath, tokens, args.timeout_seconds),
  };
}

const MAX_WAIT_SECONDS = 3600;
/** How often a running remote task is asked for its state (tasks/get works with every agent, streaming or not). */
const POLL_MS = 500;

export function a2aSendTool(
  agents: readonly RemoteAgentConfig[],
  workspacePath: string,
  tokens: AgentTokens,
): AnyToolDef {
  const byName = new Map(agents.map((a) => [a.name, a]));
  const names = agents.map((a) => a.name) as [string, ...string[]];
  const list = agents.map((a) => `- ${a.name}${a.description ? `: ${a.description}` : ''}`).join('\n');
  return {
    name: A2A_SEND_TOOL,
    description:
      'Sends a message to a remote agent (Agent2Agent protocol) and answers with its reply: its result, or the ' +
      'question it asks (answer it with another a2a_send naming its task_id), or, when its task is still running ' +
      `at the agent's timeout, the task id to wait for with a2a_wait. The agents:\n${list}`,
    parameters: z.strictObject({
      agent: z.enum(names).describe('The remote agent.'),
      message: z.string().min(1).describe('What to ask or tell it.'),
      task_id: z.string().min(1).optional().describe("The agent's task this message answers or goes on with."),
      context_id: z.string().min(1).optional().describe("The agent's context a new task of it belongs to."),
    }),
    readOnly: false,
    needs: ['network', 'external'],
    review: (args: SendArgs) => {
      const agent = byName.get(args.agent) as RemoteAgentConfig;
      const where = args.task_id ? ` (its task ${args.task_id})` : '';
      return {
        kind: 'ask',
        summary: `Send to the remote agent ${agent.name} at ${agent.url}${where}:\n\n${args.message}`,
      };
    },
    execute: (args: SendArgs, ctx) =>
      call(byName.get(args.agent) as RemoteAgentConfig, args, ctx, workspacePath, tokens),
  };
}

/** A send (args with a message) or a wait (args with only a task id) on the agent, bounded by the timeout. */
async function call(
  agent: RemoteAgentConfig,
  args: SendArgs | WaitArgs,
  ctx: ToolContext,
  workspacePath: string,
  tokens: AgentTokens,
  timeoutSeconds?: number,
): Promise<ToolResult> {
  let token: string | null = null;
  if (agent.takesToken) {
    try {
      token = tokens.open(workspacePath, agent.name);
    } catch {
      return fail(`the saved token of the remote agent ${agent.name} cannot be opened; a person must save it again`);
    }
    if (token === null && agent.tokenRequired) {
      return fail(
        `the remote agent ${agent.name} needs a token and none is saved; a person saves it in MAESTRO ` +
          '(POST /api/local/agents/tokens), then the call can be made again',
      );
    }
  }
  const scrub = (text: string) => (token ? text.replaceAll(token, '[token]') : text);
  const timeoutMs = timeoutSeconds ? timeoutSeconds * 1000 : agent.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const origin = new URL(agent.url).origin;
  let refused = false;
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    if (token && url.origin === origin) headers.set('authorization', `Bearer ${token}`);
    const res = await fetch(input, { ...init, headers, signal: init?.signal ?? signal });
    if ((res.status === 401 || res.status === 403) && url.origin === origin) refused = true;
    return res;
  };
  const compat = { fetchImpl, legacyCompat: { enabled: true } };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(compat), new RestTransportFactory(compat)],
      cardResolver: new DefaultAgentCardResolver(compat),
    }),
  );
  const label = `the remote agent ${agent.name} (${agent.url})`;
  try {
    const client = await factory.createFromUrl(agent.url);
    let result: Message | Task;
    if ('message' in args) {
      // A new task is sent not blocking: the agent answers at once with its task, followed here by tasks/get, so one
      // still running at the timeout is not lost, its id goes to the model (a blocking send loses it with the cut
      // connection). A message on a known task blocks: answered at once, it would show the task's state before it.
      const request = SendMessageRequest.fromJSON({
        message: {
          messageId: randomUUID(),
          role: 'ROLE_USER',
          parts: [{ text: args.message }],
          ...(args.task_id ? { taskId: args.task_id } : {}),
          ...(args.context_id ? { contextId: args.context_id } : {}),
        },
        ...(args.task_id ? {} : { configuration: { returnImmediately: true } }),
      });
      result = await client.sendMessage(request, { signal });
    } else {
      result = await client.getTask(GetTaskRequest.fromJSON({ id: args.task_id }), { signal });
    }
    if (token) tokens.markAccepted(workspacePath, agent.name);
    let last: Task | undefined = 'status' in result ? result : undefined;
    while (last && running(last)) {
      const more = await pause(POLL_MS, signal);
      if (!more) break;
      try {
        last = await client.getTask(GetTaskRequest.fromJSON({ id: last.id }), { signal });
      } catch (error) {
        if (timeout.aborted) break;
        throw error;
      }
    }
    if (last && running(last)) {
      if (ctx.signal.aborted) return fail(`the call to ${label} was stopped: the job is ending`);
      return ok(
        scrub(
          `${describeResult(agent.name, last).text}\nIt is still running after ${timeoutMs / 1000} s: wait for it ` +
            `with a2a_wait naming agent "${agent.name}" and task_id "${last.id}".`,
        ),
      );
    }
    const answer = describeResult(agent.name, last ?? result);
    return answer.ok ? ok(scrub(answer.text)) : fail(scrub(answer.text));
  } catch (error) {
    if (refused) {
      if (token) tokens.markRejected(workspacePath, agent.name);
      return fail(
        `${label} refused the call (401/403): ${token ? 'the saved token was not accepted' : 'it needs a token'}; ` +
          'a person saves one in MAESTRO',
      );
    }
    if (timeout.aborted && args.task_id) {
      return ok(
        `${label} did not answer within ${timeoutMs / 1000} s; its task may still be running there: wait for it ` +
          `with a2a_wait naming agent "${agent.name}" and task_id "${args.task_id}".`,
      );
    }
    if (timeout.aborted) {
      return fail(`${label} did not answer within ${timeoutMs / 1000} s; its task may still be running there`);
    }
    if (ctx.signal.aborted) return fail(`the call to ${label} was stopped: the job is ending`);
    return fail(scrub(`${label} could not be reached or answered with an error: ${(error as Error).message}`));
  }
}

const running = (task: Task) =>
  task.status?.state === TaskState.TASK_STATE_SUBMITTED || task.status?.state === TaskState.TASK_STATE_WORKING;

/** Waits `ms`; false when `signal` ends first. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

const partsText = (parts: Message['parts']) =>
  parts
    .map((p) => {
      const c = p.content;
      if (c?.$case === 'text') return c.value;
      if (c?.$case === 'data') return JSON.stringify(c.value);
      if (c?.$case === 'url') return `(a file: ${c.value})`;
      if (c?.$case === 'raw') return `(a file${p.filename ? ` ${p.filename}` : ''}, ${c.value.length} bytes)`;
      return '';
    })
    .filter((t) => t !== '')
    .join('\n');

/** What the model reads of the agent's answer: a message's text, or a task's state, question or result. */
function describeResult(name: string, result: Message | Task): { ok: boolean; text: string } {
  if (!('status' in result))
    return { ok: true, text: `The remote agent ${name} answered:\n${partsText(result.parts)}` };
  const state = result.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const said = result.status?.message ? partsText(result.status.message.parts) : '';
  const results = result.artifacts.map((a) => partsText(a.parts)).filter((t) => t !== '');
  const head = `The remote agent ${name}: task ${result.id} (context ${result.contextId}) is ${stateName(state)}.`;
  switch (state) {
    case TaskState.TASK_STATE_COMPLETED:
      return { ok: true, text: [head, ...results, ...(said ? [said] : [])].join('\n\n') };
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      return {
        ok: true,
        text: `${head} It asks:\n${said || '(no text)'}\n\nAnswer it with a2a_send naming task_id "${result.id}".`,
      };
    case TaskState.TASK_STATE_SUBMITTED:
    case TaskState.TASK_STATE_WORKING:
      return { ok: true, text: `${head}${said ? `\n${said}` : ''}` };
    default:
      return { ok: false, text: `${head}${said ? `\n${said}` : ''}` };
  }
}
