// The permission model as a table: every built-in tool and an MCP tool with each annotation, under each policy rule
// (none, allow, ask, deny), in a movement that may edit and in one with `edit: false`, with an OS sandbox and without.
// decideCall is pure: the table runs on every machine (the sandbox is declared, nothing is run).

import { describe, expect, it } from 'vitest';
import { openFilesystemServer } from '../../test-support/connection-kit';
import { NO_SANDBOX } from '../../test-support/temp-maestro';
import { DECLARED_SANDBOX, tempWorkspace } from '../../test-support/tools';
import { mcpToolDef } from '../mcp/mcp-tools';
import { builtinTools } from './builtins';
import type { SandboxChoice } from './os-sandbox';
import { decideCall, type ToolRule } from './permission';
import { DEFAULT_POLICY } from './policy-schema';
import type { AnyToolDef } from './types';

const mcp = (annotations: Record<string, boolean> | undefined) =>
  mcpToolDef(
    'mcp__srv__t',
    { name: 't', inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) },
    () => Promise.resolve({ kind: 'result', ok: true, content: '' }),
  );

/** Valid arguments for the tools that take more than a path (an edit's review reads them when the policy asks). */
const ARGS: Record<string, unknown> = {
  run_command: { command: 'npm test' },
  write_file: { path: 'a.txt', content: 'x' },
  edit_file: { path: 'a.txt', old_string: 'x', new_string: 'y' },
};

const tools: Record<string, { tool: AnyToolDef; args: unknown }> = {
  ...Object.fromEntries(
    builtinTools(DEFAULT_POLICY).map((t) => [t.name, { tool: t, args: ARGS[t.name] ?? { path: 'a.txt' } }]),
  ),
  'mcp readOnlyHint': { tool: mcp({ readOnlyHint: true }), args: {} },
  'mcp readOnlyHint closed-world': { tool: mcp({ readOnlyHint: true, openWorldHint: false }), args: {} },
  'mcp destructiveHint': { tool: mcp({ readOnlyHint: false, destructiveHint: true }), args: {} },
  'mcp openWorldHint false': { tool: mcp({ readOnlyHint: false, openWorldHint: false }), args: {} },
  'mcp without annotations': { tool: mcp(undefined), args: {} },
};

type Row = [none: string, allow: string, ask: string, deny: string];
/** What a call gets: run, ask (a person decides), refuse — in a movement that may edit, then in one that may not. */
const EXPECTED: Record<string, { edit: Row; noEdit: Row }> = {
  read_file: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  list_dir: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  glob: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  grep: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  write_file: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['refuse', 'refuse', 'refuse', 'refuse'] },
  edit_file: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['refuse', 'refuse', 'refuse', 'refuse'] },
  // A command runs in the sandbox, with the workspace read-only when the movement may not edit.
  run_command: { edit: ['ask', 'run', 'ask', 'refuse'], noEdit: ['ask', 'run', 'ask', 'refuse'] },
  // Its call parks for the person's decision on the package itself.
  request_package: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  // Read-only but not declared closed-world: it may reach the network, so it asks (mcp-permission.test.ts has all 27).
  'mcp readOnlyHint': { edit: ['ask', 'run', 'ask', 'refuse'], noEdit: ['ask', 'run', 'ask', 'refuse'] },
  'mcp readOnlyHint closed-world': { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  'mcp destructiveHint': { edit: ['ask', 'run', 'ask', 'refuse'], noEdit: ['refuse', 'refuse', 'refuse', 'refuse'] },
  'mcp openWorldHint false': {
    edit: ['ask', 'run', 'ask', 'refuse'],
    noEdit: ['refuse', 'refuse', 'refuse', 'refuse'],
  },
  'mcp without annotations': {
    edit: ['ask', 'run', 'ask', 'refuse'],
    noEdit: ['refuse', 'refuse', 'refuse', 'refuse'],
  },
};

const RULES: ToolRule[] = [undefined, 'allow', 'ask', 'deny'];

describe('one permission model for every tool', () => {
  const table = (sandbox: SandboxChoice) => {
    const t = tempWorkspace();
    const seen: Record<string, { edit: string[]; noEdit: string[] }> = {};
    for (const [label, { tool, args }] of Object.entries(tools)) {
      const row = (canEdit: boolean) =>
        RULES.map((rule) => decideCall(tool, args, t.ctx({ canEdit, sandbox }), rule, false).kind);
      seen[label] = { edit: row(true), noEdit: row(false) };
    }
    return seen;
  };

  it('P4.34 the table: built-in and MCP tools × no rule / allow / ask / deny × edit or not, with an OS sandbox', () => {
    expect(table(DECLARED_SANDBOX)).toEqual(EXPECTED);
  });

  it('P4.34 the table without an OS sandbox: run_command asks even where the policy allows it; the rest is unchanged', () => {
    const run_command = { edit: ['ask', 'ask', 'ask', 'refuse'], noEdit: ['ask', 'ask', 'ask', 'refuse'] };
    expect(table(NO_SANDBOX)).toEqual({ ...EXPECTED, run_command });
  });

  it('a one-time approval (the Auto Prompter) runs a call that would ask, but not one the policy denies or edit: false binds', () => {
    const t = tempWorkspace();
    const unannotated = tools['mcp without annotations']?.tool as AnyToolDef;
    expect(decideCall(unannotated, {}, t.ctx(), undefined, true).kind).toBe('run');
    expect(decideCall(unannotated, {}, t.ctx(), 'deny', true).kind).toBe('refuse');
    expect(decideCall(unannotated, {}, t.ctx({ canEdit: false }), undefined, true)).toEqual({
      kind: 'refuse',
      message: 'mcp__srv__t changes files, and this movement may not edit (edit: false)',
    });
  });

  it('a one-time approval (the Auto Prompter) does not cover what always asks: outside the sandbox, unlisted hosts, no OS sandbox', () => {
    const t = tempWorkspace();
    const run = tools.run_command?.tool as AnyToolDef;
    const noSandbox = { ok: false as const, reason: 'bubblewrap is missing' };
    expect(decideCall(run, { command: 'npm test' }, t.ctx({ sandbox: noSandbox }), 'allow', true)).toMatchObject({
      kind: 'ask',
      always: true,
    });
    const outside = { command: 'npm test', outside_sandbox: true };
    expect(decideCall(run, outside, t.ctx({ sandbox: noSandbox }), undefined, true).kind).toBe('ask');
    const hosts = { command: 'curl example.com', network: ['example.com'] };
    expect(decideCall(run, hosts, t.ctx({ sandbox: noSandbox }), 'allow', true).kind).toBe('ask');
  });

  it('an MCP call that asks shows its name and arguments on the card', () => {
    const t = tempWorkspace();
    const unannotated = tools['mcp without annotations']?.tool as AnyToolDef;
    expect(decideCall(unannotated, { path: '.maestro/policy.json' }, t.ctx(), undefined, false)).toEqual({
      kind: 'ask',
      summary:
        'mcp__srv__t\n{\n  "path": ".maestro/policy.json"\n}\nThis tool may reach the network: its server does not declare it closed-world (openWorldHint: false).',
    });
  });

  it('the reference filesystem MCP server as its authors annotated it: reads run, writes ask, and edit: false refuses them', async () => {
    const t = tempWorkspace();
    const connection = await openFilesystemServer(t.ws);
    try {
      const listed = await connection.listTools(new AbortController().signal);
      const decided = (canEdit: boolean) =>
        Object.fromEntries(
          listed
            .filter((l) =>
              ['read_text_file', 'list_directory', 'write_file', 'edit_file', 'move_file'].includes(l.name),
            )
            .map((l) => {
              const tool = mcpToolDef(`mcp__fs__${l.name}`, l, () =>
                Promise.resolve({ kind: 'result', ok: true, content: '' }),
              );
              return [l.name, decideCall(tool, { path: 'a.txt' }, t.ctx({ canEdit }), undefined, false).kind];
            }),
        );
      expect(decided(true)).toEqual({
        read_text_file: 'run',
        list_directory: 'run',
        write_file: 'ask',
        edit_file: 'ask',
        move_file: 'ask',
      });
      expect(decided(false)).toEqual({
        read_text_file: 'run',
        list_directory: 'run',
        write_file: 'refuse',
        edit_file: 'refuse',
        move_file: 'refuse',
      });
    } finally {
      await connection.close();
    }
  });
});
