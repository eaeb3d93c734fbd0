// A workspace's SSH targets (its Tool Policy's `ssh.targets`, for run_command's `target`) and the private key a person
// chooses for one: read once by the host and sealed there, never in any output. Without a key the SSH agent is used.
import { z } from 'zod';
import { op } from './operation';

/** A target's name in the policy: what run_command's `target` says. */
export const SSH_TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

export const SshTargetView = z.object({
  name: z.string(),
  /** `user@host:port`. */
  address: z.string(),
  /** The host key the policy accepts, as `SHA256:…` (or the key's type and fingerprint). */
  hostKey: z.string(),
  /** How it is reached: the key a person chose (`saved`), one that cannot be opened, or the SSH agent. */
  key: z.enum(['agent', 'saved', 'unreadable']),
});
export type SshTargetView = z.infer<typeof SshTargetView>;

const WorkspacePath = z.string().min(1).max(4096);

export const sshOperations = {
  /** The SSH targets of a workspace's policy in force, with how each is reached; `error`: a broken policy file. */
  listSshTargets: op({
    method: 'GET',
    path: '/ssh/targets/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: WorkspacePath }).strict(),
    output: z.object({ targets: z.array(SshTargetView), error: z.string().nullable() }),
  }),
  /**
   * Chooses the private key a target is reached with: the host reads the file now (it must be a private key without a
   * passphrase — a protected key belongs in the SSH agent) and keeps it sealed; `keyFile: null` goes back to the agent.
   */
  saveSshTargetKey: op({
    method: 'POST',
    path: '/ssh/keys',
    status: 200,
    input: z
      .object({
        workspacePath: WorkspacePath,
        target: z.string().regex(SSH_TARGET_NAME, "must be an SSH target name of the workspace's policy"),
        keyFile: z
          .string()
          .max(4096)
          .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path')
          .nullable(),
      })
      .strict(),
    output: z.object({ target: SshTargetView }),
  }),
};
