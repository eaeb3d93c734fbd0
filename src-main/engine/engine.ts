// The engine the Worker runs jobs with: runPiece over an LLM client per profile and the job's tools.
import { CodedError } from '../../src-shared/errors';
import { ProfileCapacities } from '../llm/capacity';
import { LlmClient, type LlmClientOptions } from '../llm/client';
import type { LlmProfile, ProfileRegistry } from '../llm/profiles';
import { type AgentTokens, a2aSendTools } from '../tools/a2a-send';
import { A2A_SEND_TOOL, A2A_WAIT_TOOL } from '../tools/names';
import type { SandboxChoice } from '../tools/os-sandbox';
import { NO_RULES } from '../tools/permission';
import { loadPolicy, resolveTools, toolAllowed, toolRules } from '../tools/policy';
import { type SshKeys, sshCredentials } from '../tools/ssh-keys';
import { SshSessions } from '../tools/ssh-run';
import type { AnyToolDef } from '../tools/types';
import { onDisk, type SettingsText } from '../workspace/accepted-settings';
import type { JobJournal, JobJournals } from './job-journal';
import { DEFAULT_LIMITS, type EngineOptions } from './job-run';
import type { LlmPort } from './llm-port';
import type { Engine, PieceRunContext } from './piece-result';
import { routePiece } from './piece-router';
import { runPiece } from './piece-runner';
import { type PromptGuard, passThroughGuard, profilePromptGuard } from './prompt-guard';
import type { JobTools } from './run-setup';

export interface EngineConfig {
  /** Opens the journal each job's run records through (jobs/journal.ts: jobJournals(store)). */
  journals: JobJournals;
  profiles: ProfileRegistry;
  /** The regular tools a job may use; default: the Workspace Tool Policy's (tests pass their own). */
  tools?: (ctx: PieceRunContext) => readonly AnyToolDef[];
  options?: Partial<EngineOptions>;
  llm?: Omit<LlmClientOptions, 'profile'>;
  /** Whether a piece exists for a workspace (create_subtask names one). */
  pieceExists?: (pieceId: string, workspacePath: string) => boolean;
  /** The text of a workspace's settings files in force: the app passes the accepted versions' (default: the files). */
  readSettings?: SettingsText;
  /** The tokens saved for remote agents; without them a job gets no a2a_send. */
  agentTokens?: AgentTokens;
  /** The private keys people chose in Settings for SSH targets (sealed); a target without one uses the SSH agent. */
  sshKeys?: SshKeys;
  /** Where the SSH agent listens (default: SSH_AUTH_SOCK of this process). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The Workspace Tool Policy's tools for a job (the policy in the version `read` gives), with the tools of the task's
 * grants unioned in, and a2a_send when the workspace has remote agents. Throws on a broken policy or agents file.
 */
export function policyTools(
  journal: JobJournal,
  ctx: PieceRunContext,
  read?: SettingsText,
  agentTokens?: AgentTokens,
  ssh?: { keys?: SshKeys; env?: NodeJS.ProcessEnv },
): JobTools {
  // Which tools a job gets is fixed for the run (byte-stable `tools`); which calls a grant covers is read per call.
  const grants = journal.activeGrants();
  const policy = loadPolicy(ctx.workspacePath, read);
  const a2a = agentTokens ? a2aSendTools(ctx.workspacePath, read ?? onDisk, agentTokens) : [];
  // Connections to the policy's SSH targets are made at a first call and closed when the run ends or parks.
  const sessions = policy.sshTargets?.length
    ? new SshSessions(sshCredentials(ctx.workspacePath, ssh?.keys, ssh?.env ?? process.env))
    : undefined;
  // a2a_wait follows a2a_send: a job that may send may wait for what it sent (a stable pair in `tools`).
  const allows = (name: string) => toolAllowed(policy, grants, name === A2A_WAIT_TOOL ? A2A_SEND_TOOL : name);
  return {
    tools: [...resolveTools(policy, grants, sessions), ...a2a.filter((t) => allows(t.name))],
    allows,
    rules: toolRules(policy, () => journal.activeGrants()),
    ...(policy.limits ? { limits: policy.limits } : {}),
    ...(sessions ? { close: () => sessions.close() } : {}),
  };
}

/** An engine given no OS sandbox runs no command without asking. */
const NOT_SANDBOXED: SandboxChoice = { ok: false, reason: 'this host runs commands without an OS sandbox' };

export class NoProfileError extends CodedError {
  readonly code = 'no_llm_profile';
  constructor(name: string | null) {
    super(name ? `no LLM profile named ${name}` : 'no LLM profile is configured (set MAESTRO_LLM_BASE_URL)');
  }
}

export function createEngine(config: EngineConfig): Engine {
  const clients = new Map<string, LlmPort>();
  // A profile's capacity outlives its clients: an edit of the profile must not forget a server's pause.
  const capacities = new ProfileCapacities();
  // Clients and guards are made from a profile as it was: when any profile changes, they are made again.
  let profilesVersion = config.profiles.version;
  const dropStale = () => {
    if (config.profiles.version === profilesVersion) return;
    profilesVersion = config.profiles.version;
    clients.clear();
    guards.clear();
  };
  const llmFor = (name: string | null): LlmPort => {
    dropStale();
    const profileName = name ?? config.profiles.defaultName;
    const profile = profileName ? config.profiles.get(profileName) : undefined;
    if (!profile) throw new NoProfileError(profileName);
    const client =
      clients.get(profile.name) ?? new LlmClient({ ...config.llm, profile, capacity: capacities.of(profile) });
    clients.set(profile.name, client);
    return client;
  };
  const options: EngineOptions = {
    limits: DEFAULT_LIMITS,
    promptGuard: passThroughGuard,
    deadlineMs: null,
    // About a frame: text reaches the screen as fast as it can be shown, in a few dozen events a second at most.
    streamIntervalMs: 16,
    sandbox: NOT_SANDBOXED,
    ...(config.readSettings ? { readSettings: config.readSettings } : {}),
    ...config.options,
  };
  // Prompt guard per profile: its context window, and an LLM summarizer on a client of its own (so a job's LlmCall
  // numbers stay the job's). A guard given in the options (tests) is used for every job instead.
  const guards = new Map<string, PromptGuard>();
  const guardFor = (name: string | null): PromptGuard => {
    dropStale();
    let profile: LlmProfile | undefined;
    try {
      profile = config.profiles.get(name ?? config.profiles.defaultName ?? '');
    } catch {
      return passThroughGuard; // a key that cannot be opened: llmFor fails the job with the reason
    }
    if (!profile) return passThroughGuard;
    let summarizer: LlmClient | undefined;
    const guard =
      guards.get(profile.name) ??
      profilePromptGuard(
        profile,
        () => (summarizer ??= new LlmClient({ ...config.llm, profile, capacity: capacities.of(profile) })),
        config.llm?.outputReserveTokens,
      );
    guards.set(profile.name, guard);
    return guard;
  };
  return {
    routePiece: ({ job, task, pieces, signal }) => routePiece(llmFor(job.profile), task, pieces, signal),
    // Through the profile's client: its retries, its capacity and its pauses on a 429 apply as to any job's call.
    reflect: async ({ job, messages, signal }) => {
      const reply = await llmFor(job.profile).generate({ messages, signal });
      if (reply.refusal) throw new Error(`the model declined: ${reply.refusal}`);
      return reply.text;
    },
    runPiece: (ctx) =>
      runPiece(
        {
          journals: config.journals,
          llmFor,
          toolsFor: config.tools
            ? (ctx) => ({ tools: config.tools?.(ctx) ?? [], allows: () => true, rules: NO_RULES })
            : (ctx, journal) =>
                policyTools(journal, ctx, config.readSettings, config.agentTokens, {
                  ...(config.sshKeys ? { keys: config.sshKeys } : {}),
                  ...(config.env ? { env: config.env } : {}),
                }),
          options: config.options?.promptGuard ? options : { ...options, promptGuard: guardFor(ctx.job.profile) },
          ...(config.pieceExists ? { pieceExists: config.pieceExists } : {}),
        },
        ctx,
      ),
  };
}
