import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DECLARED_SANDBOX,
  dispatchCall,
  machineSandbox,
  tempWorkspace,
  text,
  withoutSandbox,
} from '../../test-support/tools';
import { ConfigFileError } from '../workspace/json-file';
import type { GrantScope } from './grants';
import { BUILTIN_TOOL_NAMES } from './names';
import { DEFAULT_POLICY, loadPolicy, parsePolicy, resolveTools, toolAllowed, toolRules } from './policy';
import type { AnyToolDef } from './types';

/** The blanket grant of a tool (any call in the task). */
const anyCall = (tool: string): GrantScope => ({ tool, kind: 'tool', target: null, rule: null });

const writePolicy = (ws: string, body: string) => {
  fs.mkdirSync(path.join(ws, '.maestro'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.maestro', 'policy.json'), body);
};

describe('Workspace Tool Policy', () => {
  it('no policy file → the default: every built-in tool, run_command asks', async () => {
    const t = tempWorkspace();
    expect(loadPolicy(t.ws)).toEqual(DEFAULT_POLICY);
    const tools = resolveTools(loadPolicy(t.ws), []);
    expect(tools.map((x) => x.name)).toEqual([...BUILTIN_TOOL_NAMES]);
    const run = tools.find((x) => x.name === 'run_command') as AnyToolDef;
    expect((await dispatchCall(run, { command: 'git status' }, t.ctx({ sandbox: DECLARED_SANDBOX }))).kind).toBe(
      'wait',
    );
  });

  it('reads deny and run_command.allow from .maestro/policy.json', () => {
    const t = tempWorkspace();
    writePolicy(
      t.ws,
      JSON.stringify({ tools: { deny: ['write_file'] }, run_command: { allow: ['npm test', 'git *'] } }),
    );
    expect(loadPolicy(t.ws)).toEqual({
      ...DEFAULT_POLICY,
      deniedTools: ['write_file'],
      runCommandAllow: ['npm test', 'git *'],
    });
    writePolicy(t.ws, '{}');
    expect(loadPolicy(t.ws)).toEqual(DEFAULT_POLICY);
  });

  it('a broken file → ConfigFileError naming the file and the field', () => {
    const t = tempWorkspace();
    const file = path.join(t.ws, '.maestro', 'policy.json');
    writePolicy(t.ws, '{ "tools": ');
    expect(() => loadPolicy(t.ws)).toThrow(ConfigFileError);
    expect(() => loadPolicy(t.ws)).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`),
    );
    writePolicy(t.ws, JSON.stringify({ tools: { deny: ['rm_rf'] } }));
    expect(() => loadPolicy(t.ws)).toThrow(/policy\.json: tools\.deny\.0: unknown tool "rm_rf"/);
    writePolicy(t.ws, JSON.stringify({ run_command: { allow: 'npm test' } }));
    expect(() => loadPolicy(t.ws)).toThrow(/policy\.json: run_command\.allow: /);
    expect(() => parsePolicy(JSON.stringify({ run_commands: {} }), 'p.json')).toThrow(
      /^p\.json: \(top level\): Unrecognized key: "run_commands"/,
    );
  });

  it('P2.18 / P3.11 the policy is the only source: denied tools are absent, nothing else adds any', () => {
    const policy = {
      deniedTools: ['run_command', 'write_file', 'edit_file'],
      runCommandAllow: [],
      runCommandNetwork: [],
      askTools: [],
      allowTools: [],
    };
    expect(resolveTools(policy, []).map((t) => t.name)).toEqual([
      'read_file',
      'list_dir',
      'glob',
      'grep',
      'request_package',
    ]);
    expect(resolveTools(policy, [anyCall('not_a_tool')]).map((t) => t.name)).toEqual([
      'read_file',
      'list_dir',
      'glob',
      'grep',
      'request_package',
    ]);
    expect(toolAllowed(policy, [], 'create_subtask')).toBe(true);
    expect(
      toolAllowed(
        { deniedTools: ['delegate'], runCommandAllow: [], runCommandNetwork: [], askTools: [], allowTools: [] },
        [],
        'delegate',
      ),
    ).toBe(false);
  });

  it('P2.18 task grants are unioned in', () => {
    const policy = {
      deniedTools: ['run_command'],
      runCommandAllow: [],
      runCommandNetwork: [],
      askTools: [],
      allowTools: [],
    };
    expect(resolveTools(policy, [anyCall('run_command')]).map((t) => t.name)).toContain('run_command');
  });

  it.skipIf(withoutSandbox('policy: a command allowed by the policy runs'))(
    'P4.35 a command allowed by the policy runs without asking',
    async () => {
      const t = tempWorkspace();
      writePolicy(t.ws, JSON.stringify({ run_command: { allow: ['echo *'] } }));
      const run = resolveTools(loadPolicy(t.ws), []).find((x) => x.name === 'run_command') as AnyToolDef;
      const ctx = t.ctx({ sandbox: machineSandbox });
      expect(text(await dispatchCall(run, { command: 'echo ok' }, ctx))).toBe('Exit code: 0\nok\n');
      expect((await dispatchCall(run, { command: 'echo ok; touch x' }, ctx)).kind).toBe('wait');
    },
  );

  it.skipIf(withoutSandbox('policy: a task grant of run_command runs the calls it covers'))(
    'P7.04 a task grant of run_command → later calls it covers run without asking; others and a task without it ask',
    async () => {
      const t = tempWorkspace();
      const run = resolveTools(DEFAULT_POLICY, []).find((x) => x.name === 'run_command') as AnyToolDef;
      const ctx = t.ctx({ sandbox: machineSandbox });
      const exact = {
        tool: 'run_command',
        kind: 'exact' as const,
        target: { kind: 'command' as const, value: 'echo granted' },
        rule: null,
      };
      const granted = toolRules(DEFAULT_POLICY, () => [exact]);
      const call = { command: 'echo granted' };
      expect(text(await dispatchCall(run, call, ctx, granted.ruleFor('run_command', call)))).toBe(
        'Exit code: 0\ngranted\n',
      );
      const other = { command: 'echo granted; touch x' };
      expect((await dispatchCall(run, other, ctx, granted.ruleFor('run_command', other))).kind).toBe('wait');
      expect(fs.existsSync(path.join(t.ws, 'x'))).toBe(false);
      const none = toolRules(DEFAULT_POLICY, () => []).ruleFor('run_command', call);
      expect((await dispatchCall(run, call, ctx, none)).kind).toBe('wait');
    },
  );

  it('tools.allow / ask / deny name any tool, MCP ones by pattern; the strictest rule that names a tool wins', () => {
    const t = tempWorkspace();
    writePolicy(
      t.ws,
      JSON.stringify({ tools: { deny: ['mcp__fs__write_*'], ask: ['read_file', 'mcp__fs__*'], allow: ['mcp__*'] } }),
    );
    const policy = loadPolicy(t.ws);
    const rules = toolRules(policy, () => [anyCall('mcp__fs__write_file')]);
    expect(
      ['mcp__fs__write_file', 'mcp__fs__read', 'mcp__gh__issue', 'read_file', 'grep'].map((n) => rules.ruleFor(n, {})),
    ).toEqual([
      'allow', // granted for the task by a person (any call: the blanket grant)
      'ask',
      'allow',
      'ask',
      undefined,
    ]);
    expect(toolAllowed(policy, [], 'mcp__fs__write_file')).toBe(false);
    expect(toolAllowed(policy, [anyCall('mcp__fs__write_file')], 'mcp__fs__write_file')).toBe(true);
    writePolicy(t.ws, JSON.stringify({ tools: { allow: ['rm_rf'] } }));
    expect(() => loadPolicy(t.ws)).toThrow(/policy\.json: tools\.allow\.0: unknown tool "rm_rf"/);
  });
});
