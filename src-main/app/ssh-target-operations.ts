// GET /ssh/targets/:workspacePath and POST /ssh/keys: a workspace's SSH targets (its Tool Policy in force) with how
// each is reached, and choosing the private key one is reached with — read here from the file a person picked, checked,
// and sealed in ssh-keys.json; no output ever holds it.
import type { OpOutput, OpParsedInput, SshTargetView } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { fingerprint } from '../ssh/known-hosts';
import { resolveWorkspaceFolder } from '../tasks/create';
import { invalid } from '../tasks/errors';
import { loadPolicy, policyFile } from '../tools/policy';
import type { SshTarget } from '../tools/policy-schema';
import { readPrivateKeyFile } from '../tools/ssh-keys';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';
import { conflictOnFileError } from './settings-change-operations';

function view(ctx: AppContext, workspace: string, target: SshTarget): SshTargetView {
  let key: SshTargetView['key'] = 'agent';
  if (ctx.sshKeys.state(workspace, target.name).hasToken) {
    try {
      ctx.sshKeys.open(workspace, target.name);
      key = 'saved';
    } catch {
      key = 'unreadable';
    }
  }
  const hk = target.hostKey;
  return {
    name: target.name,
    address: `${target.user}@${target.host}:${target.port}`,
    hostKey: hk.kind === 'fingerprint' ? hk.sha256 : `${hk.type} ${fingerprint(hk.key)}`,
    key,
  };
}

export function listSshTargets(ctx: AppContext, input: OpParsedInput<'listSshTargets'>): OpOutput<'listSshTargets'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  try {
    const targets = loadPolicy(workspace, ctx.accepted.inForce).sshTargets ?? [];
    return { targets: targets.map((t) => view(ctx, workspace, t)), error: null };
  } catch (error) {
    if (error instanceof ConfigFileError) return { targets: [], error: error.message };
    throw error;
  }
}

export function saveSshTargetKey(
  ctx: AppContext,
  input: OpParsedInput<'saveSshTargetKey'>,
): OpOutput<'saveSshTargetKey'> {
  const workspace = resolveWorkspaceFolder(input.workspacePath);
  const targets = conflictOnFileError(() => loadPolicy(workspace, ctx.accepted.inForce).sshTargets ?? []);
  const target = targets.find((t) => t.name === input.target);
  if (!target) {
    const known = targets.length === 0 ? 'it names none' : `it names ${targets.map((t) => t.name).join(', ')}`;
    throw new MaestroError('not_found', `no SSH target named ${input.target} in ${policyFile(workspace)} (${known})`);
  }
  if (input.keyFile === null) {
    conflictOnFileError(() => ctx.sshKeys.forget(workspace, target.name));
  } else {
    let text: string;
    try {
      text = readPrivateKeyFile(input.keyFile);
    } catch (error) {
      throw invalid('keyFile', (error as Error).message);
    }
    conflictOnFileError(() => ctx.sshKeys.save(workspace, target.name, text));
  }
  return { target: view(ctx, workspace, target) };
}
