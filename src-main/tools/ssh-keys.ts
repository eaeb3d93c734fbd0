// The private keys people choose in Settings for SSH targets: `<dataDir>/ssh-keys.json`, one per workspace + target,
// the key's text sealed by the app's SecretBox like the MCP and remote-agent tokens (McpTokenStore, bound to its
// workspace and target). Never in the policy, the DB, an event, a log, a prompt or the model's arguments. A target
// without a chosen key is reached with the person's SSH agent (SSH_AUTH_SOCK).
import fs from 'node:fs';
import { utils } from 'ssh2';
import type { SshTarget } from './policy-schema';
import { agentCredential, type SshCredentials } from './ssh-run';

export const SSH_KEYS_FILE = 'ssh-keys.json';

/** The sealed keys (the app passes a McpTokenStore over ssh-keys.json), by workspace and target name. */
export interface SshKeys {
  /** The key's text, null when none is chosen; throws when it cannot be opened. */
  open(workspace: string, target: string): string | null;
  save(workspace: string, target: string, key: string): void;
  forget(workspace: string, target: string): void;
  state(workspace: string, target: string): { hasToken: boolean };
}

/** The key chosen for the target in this workspace when there is one, else the agent. */
export function sshCredentials(workspace: string, keys: SshKeys | undefined, env: NodeJS.ProcessEnv): SshCredentials {
  const agent = agentCredential(env);
  return (target: SshTarget) => {
    if (keys) {
      let key: string | null;
      try {
        key = keys.open(workspace, target.name);
      } catch (error) {
        // McpTokenError's words name an MCP server; say which target's key, and what to do.
        const why = (error as Error).message.replace(/^.*cannot be used: /, '');
        return { error: `the key chosen in Settings for SSH target "${target.name}" cannot be opened (${why})` };
      }
      if (key !== null) return { kind: 'key', privateKey: key };
    }
    return agent(target);
  };
}

/**
 * Reads the key file a person chose and checks that ssh can use it as it is (a private key, no passphrase: a
 * protected key belongs in the agent); returns its text to seal, or throws an Error whose message names the file.
 */
export function readPrivateKeyFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${file} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  const parsed = utils.parseKey(text);
  if (parsed instanceof Error) {
    if (/passphrase|encrypted/i.test(parsed.message)) {
      throw new Error(`${file} is protected by a passphrase: add it to your SSH agent (ssh-add) and use the agent`);
    }
    throw new Error(`${file} is not a private key ssh can use (${parsed.message})`);
  }
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key?.isPrivateKey()) throw new Error(`${file} holds a public key; choose the private key (without .pub)`);
  return text;
}
