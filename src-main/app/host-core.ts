// What a host is made of before anything runs (createMaestro's first step): its secrets, sandbox, accepted settings,
// MCP servers, tokens, profiles, database and checkpoints, each released through the host's DisposableStore.

import path from 'node:path';
import { openSnapshotStore } from '../checkpoints/git-store';
import { CheckpointService } from '../checkpoints/service';
import { Store } from '../db/store';
import { WalCheckpointer } from '../db/wal-checkpointer';
import { ProfileStore, SECRET_KEY_FILE } from '../llm/profile-store';
import { ProfileRegistry } from '../llm/profiles';
import { fileSecretBox } from '../llm/secret-box';
import { sampleWith } from '../mcp/sampling';
import { McpServers } from '../mcp/servers';
import { McpTokenStore } from '../mcp/token-store';
import { hiddenPaths, openSandbox, type SandboxChoice } from '../tools/os-sandbox';
import { loadPolicy } from '../tools/policy';
import { policyRule } from '../tools/policy-schema';
import { SSH_KEYS_FILE } from '../tools/ssh-keys';
import { AcceptedSettings } from '../workspace/accepted-settings';
import { dbFile } from '../workspace/paths';
import type { MaestroOptions } from './create-maestro';
import { AGENT_TOKENS_FILE } from './data-dir';
import type { DisposableStore } from './disposable-store';
import { resumeUnblocked } from './mcp-operations';
import { loadSettings } from './settings-file';

/** What the host is made of before anything runs: each part may fail on its own, and none needs closing but the DB. */
export interface Core {
  store: Store;
  sandbox: SandboxChoice;
  accepted: AcceptedSettings;
  mcp: McpServers;
  agentTokens: McpTokenStore;
  /** The keys people chose for SSH targets, sealed like the tokens. */
  sshKeys: McpTokenStore;
  profiles: ProfileRegistry;
  checkpoints: CheckpointService;
}

export function openCore(options: MaestroOptions, dataDir: string, held: DisposableStore): Core {
  // Everything that can fail on its own comes before the DB is opened, so a failure leaves nothing open.
  // One box seals every secret of the data dir: the profiles' API keys and the MCP servers' tokens.
  const secretBox = options.secretBox ?? fileSecretBox(path.join(dataDir, SECRET_KEY_FILE));
  const profileStore = ProfileStore.inDataDir(dataDir, secretBox);
  const sandbox = options.sandbox ?? openSandbox(hiddenPaths([dataDir]));
  // Settings files the agent can write apply only in the version a person accepted: pieces, MCP servers, the policy.
  const accepted = new AcceptedSettings(dataDir);
  const mcp = new McpServers(McpTokenStore.inDataDir(dataDir, secretBox), {
    clientVersion: options.version,
    sandbox,
    read: accepted.inForce,
    switches: (workspace) => accepted.mcpSwitches(workspace),
    keep: () => {
      const { keepIdleMinutes, keepSessions } = loadSettings(dataDir).settings.mcpSessions;
      return { idleMs: keepIdleMinutes * 60_000, sessions: keepSessions };
    },
    // A server's sampling request goes to the task's profile (read when it comes: the registry is made below).
    sample: (name, params, signal) => {
      const profile = profiles.get(name ?? profiles.defaultName ?? '');
      if (!profile) throw new Error(`the LLM profile ${name ?? '(default)'} does not exist`);
      return sampleWith(profile, params, signal);
    },
    defaultProfile: () => profiles.defaultName,
    // A person signed in to a server (from Settings or a waiting task's card): its parked jobs go on.
    onSignedIn: (workspace) => resumeUnblocked(mcp, store, workspace),
    rule: (workspace, name) => {
      try {
        return policyRule(loadPolicy(workspace, accepted.inForce), name);
      } catch {
        // A policy file that cannot be read allows nothing by itself: the person is asked.
        return 'ask';
      }
    },
  });
  held.add('the MCP servers kept for parked jobs', () => mcp.closeKept());
  held.add('the MCP sign-ins waiting for a browser', () => mcp.signIns.close());
  // The remote agents' tokens (a2a_send) are kept as the MCP servers' are, in a file of their own.
  const agentTokens = new McpTokenStore(path.join(dataDir, AGENT_TOKENS_FILE), secretBox);
  const sshKeys = new McpTokenStore(path.join(dataDir, SSH_KEYS_FILE), secretBox);
  const profiles = ProfileRegistry.fromEnv(options.env ?? process.env, profileStore);
  const store = options.database?.store ?? Store.open(dbFile(dataDir), { nativeBinding: options.nativeBinding });
  held.add('the database', () => store.close());
  // A file of its own (not a test's store in memory, nor PostgreSQL): its checkpoints run on a thread of their own.
  const sqlite = store.sqlite;
  if (sqlite && !sqlite.memory) {
    const checkpointer = new WalCheckpointer(sqlite, { nativeBinding: options.nativeBinding });
    held.add('the WAL checkpoint thread', () => checkpointer.close());
  }
  // What servers ask the person lives as long as its call (in memory); the windows hear of it as it opens and closes.
  mcp.prompts.listen((prompt, open) =>
    store.emitTransient({ type: 'mcp_prompt.changed', taskId: prompt.taskId, jobId: prompt.jobId, prompt, open }),
  );
  const checkpoints = new CheckpointService({
    store,
    dataDir,
    settings: () => loadSettings(dataDir).settings.checkpoints,
    open: openSnapshotStore,
    // A broken policy file is the job's to report: here it leaves the commit to Settings.
    workspaceCommit: (workspace) => {
      try {
        return loadPolicy(workspace, accepted.inForce).workspaceCommit !== false;
      } catch {
        return true;
      }
    },
  });
  held.add('the checkpoints’ object worker', () => checkpoints.close());
  return { store, sandbox, accepted, mcp, agentTokens, sshKeys, profiles, checkpoints };
}
