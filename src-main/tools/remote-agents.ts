// The remote agents a workspace's pieces may delegate to over the Agent2Agent protocol: `<workspace>/.maestro/agents.json`,
// read fresh for every job in the version a person accepted (the agent can write the file). A token is never in it: a
// person saves one in MAESTRO (sealed in the data dir), and it goes only to the agent's own origin. Format: README.md.
import path from 'node:path';
import { z } from 'zod';
import { REMOTE_AGENT_NAME } from '../../src-shared/contract';
import { onDisk, SETTINGS_FILES, type SettingsText } from '../workspace/accepted-settings';
import { ConfigFileError, parseConfigJson } from '../workspace/json-file';

export const AGENTS_FILE = SETTINGS_FILES.agents;
export const agentsFile = (workspacePath: string) => path.join(workspacePath, AGENTS_FILE);

/** How long one call waits for the remote agent's answer, by default and at most. */
export const DEFAULT_AGENT_TIMEOUT_S = 300;
const MAX_AGENT_TIMEOUT_S = 3600;

const AgentEntry = z.strictObject({
  url: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL'),
  description: z.string().max(2000).default(''),
  /** A token a person saved for this agent goes with each call (`Authorization: Bearer`); required: none, no call. */
  auth: z.strictObject({ required: z.boolean().default(true) }).optional(),
  timeout_seconds: z.number().int().min(1).max(MAX_AGENT_TIMEOUT_S).default(DEFAULT_AGENT_TIMEOUT_S),
});

const AgentsFileSchema = z.strictObject({ agents: z.record(z.string(), AgentEntry) });

export interface RemoteAgentConfig {
  name: string;
  /** Its base URL: the Agent Card is at `/.well-known/agent-card.json` below it. */
  url: string;
  description: string;
  /** Whether a saved token is sent; `tokenRequired`: a call without one is refused before anything is sent. */
  takesToken: boolean;
  tokenRequired: boolean;
  timeoutMs: number;
}

/** Parses an agents.json's text; agents sorted by name. `file` is used in error messages only. */
export function parseAgentsConfig(text: string, file: string): RemoteAgentConfig[] {
  const { agents } = parseConfigJson(text, file, AgentsFileSchema);
  const bad = Object.keys(agents).find((name) => !REMOTE_AGENT_NAME.test(name));
  if (bad !== undefined) {
    throw new ConfigFileError(
      file,
      `agents.${bad}: the name must be 1–32 letters, digits, "_" or "-", starting with a letter or digit`,
      { field: `agents.${bad}` },
    );
  }
  return Object.entries(agents)
    .map(([name, a]) => ({
      name,
      url: a.url,
      description: a.description,
      takesToken: a.auth !== undefined,
      tokenRequired: a.auth?.required ?? false,
      timeoutMs: a.timeout_seconds * 1000,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The workspace's remote agents: none without an agents.json; a broken file throws ConfigFileError. */
export function loadAgentsConfig(workspacePath: string, read: SettingsText = onDisk): RemoteAgentConfig[] {
  const text = read(workspacePath, AGENTS_FILE);
  return text === null ? [] : parseAgentsConfig(text, agentsFile(workspacePath));
}
