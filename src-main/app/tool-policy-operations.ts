// GET /tool-policy/:workspacePath and POST /tool-policy: a workspace's Tool Policy (`.maestro/policy.json`) for
// Settings. Only folders MAESTRO already works in — a space's folder or the host's default workspace, matched exactly
// — so the renderer cannot plant a policy file in any other folder. The policy is checked by policy-schema.ts, the
// schema the engine reads the file with; a job reads the file when its run starts (engine.ts policyTools), in the
// version a person accepted: Settings shows that version, and a save is accepted as it is written.
import fs from 'node:fs';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { describeIssues, errorIssues } from '../../src-shared/issues';
import type { ToolPolicyDocument } from '../../src-shared/tool-policy';
import { notFound } from '../tasks/errors';
import { POLICY_TOOL_NAMES } from '../tools/names';
import { DEFAULT_POLICY, loadPolicy, POLICY_FILE, policyFile } from '../tools/policy';
import { PolicyFile, type WorkspaceToolPolicy } from '../tools/policy-schema';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';
import { acceptAndWrite } from './settings-change-operations';

/** The workspace as given, when it is one MAESTRO knows; otherwise 404 (an unknown folder is not ours to write in). */
function knownWorkspace(ctx: AppContext, workspacePath: string): string {
  const known = workspacePath === ctx.defaultWorkspace || ctx.store.spaces.byFolder(workspacePath) !== undefined;
  if (!known) throw notFound('workspace', `${workspacePath} (not a space's folder or the default workspace)`);
  if (!fs.statSync(workspacePath, { throwIfNoEntry: false })?.isDirectory()) {
    throw notFound('workspace folder', `${workspacePath} (it was moved or deleted)`);
  }
  return workspacePath;
}

const toDocument = (policy: WorkspaceToolPolicy): ToolPolicyDocument => ({
  tools: { deny: [...policy.deniedTools], ask: [...policy.askTools], allow: [...policy.allowTools] },
  run_command: { allow: [...policy.runCommandAllow], network: [...policy.runCommandNetwork] },
  ...(policy.limits ? { limits: policy.limits } : {}),
  ...(policy.workspaceCommit !== undefined ? { workspace_commit: policy.workspaceCommit } : {}),
  ...(policy.ssh ? { ssh: policy.ssh } : {}),
});

function view(ctx: AppContext, workspacePath: string): OpOutput<'getToolPolicy'> {
  const file = policyFile(workspacePath);
  const base = { workspacePath, file, exists: fs.existsSync(file), knownTools: [...POLICY_TOOL_NAMES] };
  try {
    return { ...base, policy: toDocument(loadPolicy(workspacePath, ctx.accepted.inForce)), error: null };
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    return { ...base, policy: toDocument(DEFAULT_POLICY), error: error.message };
  }
}

export function getToolPolicy(ctx: AppContext, input: OpParsedInput<'getToolPolicy'>): OpOutput<'getToolPolicy'> {
  return view(ctx, knownWorkspace(ctx, input.workspacePath));
}

export function saveToolPolicy(ctx: AppContext, input: OpParsedInput<'saveToolPolicy'>): OpOutput<'saveToolPolicy'> {
  const workspacePath = knownWorkspace(ctx, input.workspacePath);
  const parsed = PolicyFile.safeParse(input.policy);
  if (!parsed.success) {
    const { issues } = parsed.error;
    const summary = describeIssues(issues, { whole: 'policy', under: ['policy'] });
    throw new MaestroError('invalid_input', `invalid tool policy: ${summary}`, errorIssues(issues, ['policy']));
  }
  // The file as the engine reads it: every key written out, so what Settings shows is what is on disk. Written by a
  // person in Settings, so accepted in the same step.
  const text = `${JSON.stringify(parsed.data, null, 2)}\n`;
  acceptAndWrite(ctx, workspacePath, POLICY_FILE, text, () => writeFileAtomic(policyFile(workspacePath), text));
  return view(ctx, workspacePath);
}
