// How a job answers its MCP servers' asks: a form the person fills in, and sampling by the workspace policy and model.
import { CreateMessageRequestParamsSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRule } from '../tools/permission';
import { readForm } from './elicitation';
import type { McpPrompts } from './person-prompts';
import { type SamplingParams, type SamplingResult, samplingSummary } from './sampling';
import { refusal } from './server-asks';
import type { McpJobHooks } from './session';

/** What answers a job's sampling requests besides the person (part of McpServersOptions). */
export interface JobAsksOptions {
  /** Answers a server's sampling request with the LLM profile named (null: the default one). */
  sample?: (profile: string | null, params: SamplingParams, signal: AbortSignal) => Promise<SamplingResult>;
  /** The profile a job that names none uses (shown on a sampling card). */
  defaultProfile?: () => string | null;
  /** The Workspace Tool Policy's rule for a name in the workspace: sampling is `mcp_sampling__<server>`. */
  rule?: (workspacePath: string, name: string) => ToolRule;
}

/** The Workspace Tool Policy's name for a server's sampling requests (`mcp_sampling__*` for every server's). */
export const samplingRuleName = (server: string) => `mcp_sampling__${server}`;

/** JSON-RPC's code for a request the person refused, as the MCP spec's sampling example answers it. */
const USER_REJECTED = -1;

/**
 * The job's answers to its servers' requests. Elicitation: a flat form the person fills in on the task's card (a
 * nested or secret-asking one is refused with the reason, and the task says so). Sampling: the Workspace Tool
 * Policy's rule for `mcp_sampling__<server>` (ask by default: a card), then the task's profile's model. Either waits
 * in place for the person, within the prompts' bound (person-prompts.ts says why it cannot park).
 */
export function withAsks(
  workspacePath: string,
  hooks: McpJobHooks,
  prompts: McpPrompts,
  options: JobAsksOptions,
): McpJobHooks {
  const { job } = hooks;
  if (!job) return hooks;
  const asker = { taskId: job.taskId, jobId: job.jobId };
  const refuse = (server: string, what: string, reason: string): never => {
    hooks.onWarning?.(server, `MCP server "${server}" ${what}; it was refused: ${reason}.`);
    throw refusal(ErrorCode.InvalidParams, `MAESTRO refused this request: ${reason}`);
  };
  return {
    ...hooks,
    onElicit: async (server, params, signal) => {
      const form = readForm(params);
      if (!form.ok) return refuse(server, 'asked the person to fill in a form', form.reason);
      const { message, fields } = form;
      const answer = await prompts.ask({ kind: 'elicit', ...asker, server, message, fields }, signal);
      return answer.action === 'accept'
        ? { action: 'accept', content: answer.content ?? {} }
        : { action: answer.action };
    },
    onSample: async (server, raw, signal) => {
      // Read here past the Client's own check (connection.ts), so checked here against the SDK's schema.
      const parsed = CreateMessageRequestParamsSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        return refuse(
          server,
          'asked for a completion',
          `not a sampling request (${where}${issue?.message ?? 'invalid'})`,
        );
      }
      const params = parsed.data as unknown as SamplingParams;
      if (params.tools !== undefined || params.toolChoice !== undefined)
        return refuse(server, 'asked for a completion', 'sampling with tools is not supported');
      const rule = options.rule?.(workspacePath, samplingRuleName(server));
      if (rule === 'deny') {
        throw refusal(USER_REJECTED, `the workspace policy denies ${samplingRuleName(server)}`);
      }
      if (rule !== 'allow') {
        const summary = samplingSummary(params);
        const profile = job.profile ?? options.defaultProfile?.() ?? 'default';
        const maxTokens = params.maxTokens;
        const answer = await prompts.ask({ kind: 'sample', ...asker, server, summary, profile, maxTokens }, signal);
        if (answer.action !== 'accept') {
          const why = {
            person: 'the person declined the sampling request',
            timeout: 'no one answered in time',
            aborted: 'the task stopped before anyone answered',
          }[answer.by];
          throw refusal(USER_REJECTED, why);
        }
      }
      if (!options.sample) throw refusal(ErrorCode.InternalError, 'this host has no model to sample with');
      try {
        return await options.sample(job.profile, params, signal);
      } catch (error) {
        throw refusal(ErrorCode.InternalError, `the model could not answer: ${(error as Error).message}`);
      }
    },
  };
}
