// The engine the Worker runs jobs with: runPiece over an LLM client per profile and the job's tools.
import type { Store } from '../db/store';
import { LlmClient, type LlmClientOptions } from '../llm/client';
import type { ProfileRegistry } from '../llm/profiles';
import type { AnyToolDef } from '../tools/types';
import { DEFAULT_LIMITS, type EngineOptions } from './job-run';
import type { LlmPort } from './llm-port';
import type { Engine, PieceRunContext } from './piece-result';
import { runPiece } from './piece-runner';
import { passThroughGuard } from './prompt-guard';

export interface EngineConfig {
  store: Store;
  profiles: ProfileRegistry;
  /** The regular tools a job may use (the Workspace Tool Policy); none until the tools arrive. */
  tools?: (ctx: PieceRunContext) => readonly AnyToolDef[];
  options?: Partial<EngineOptions>;
  llm?: Omit<LlmClientOptions, 'profile'>;
  /** Whether a piece exists for a workspace (create_subtask names one). */
  pieceExists?: (pieceId: string, workspacePath: string) => boolean;
}

export class NoProfileError extends Error {
  constructor(name: string | null) {
    super(name ? `no LLM profile named ${name}` : 'no LLM profile is configured (set MAESTRO_LLM_BASE_URL)');
    this.name = new.target.name;
  }
}

export function createEngine(config: EngineConfig): Engine {
  const clients = new Map<string, LlmPort>();
  const llmFor = (name: string | null): LlmPort => {
    const profileName = name ?? config.profiles.defaultName;
    const profile = profileName ? config.profiles.get(profileName) : undefined;
    if (!profile) throw new NoProfileError(profileName);
    const client = clients.get(profile.name) ?? new LlmClient({ ...config.llm, profile });
    clients.set(profile.name, client);
    return client;
  };
  const options: EngineOptions = {
    limits: DEFAULT_LIMITS,
    promptGuard: passThroughGuard,
    deadlineMs: null,
    streamIntervalMs: 50,
    ...config.options,
  };
  return {
    runPiece: (ctx) =>
      runPiece(
        {
          store: config.store,
          llmFor,
          toolsFor: config.tools ?? (() => []),
          options,
          ...(config.pieceExists ? { pieceExists: config.pieceExists } : {}),
        },
        ctx,
      ),
  };
}
