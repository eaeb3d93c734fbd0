// P2.18: what decides whether a command on an SSH target runs, asks or is refused — only the policy's rules for that
// target. A tool-wide allow of run_command, a task grant (even "ANY command") and an Auto Prompter approval never let
// it run without a card; a prefix grant made on a remote card is not a local prefix grant; a target's deny refuses a
// command its prefix names whatever follows.
import { describe, expect, it } from 'vitest';
import { grantCovers, grantOptions } from './grants';
import { decideCall } from './permission';
import { parsePolicy, toolRules } from './policy';
import { runCommandTool } from './run-command';
import type { ToolContext } from './types';

const FP = `SHA256:${'C'.repeat(43)}`;
const policy = parsePolicy(
  JSON.stringify({
    tools: { allow: ['run_command'] },
    run_command: { allow: ['*'] },
    ssh: { targets: { box: { host: 'h', user: 'me', hostKey: FP, allow: ['uptime'], deny: ['rm *', 'reboot'] } } },
  }),
  '/ws/.maestro/policy.json',
);
const tool = runCommandTool(policy);
const ctx: ToolContext = {
  taskId: 't',
  jobId: 'j',
  workspacePath: '/tmp',
  canEdit: true,
  signal: new AbortController().signal,
  sandbox: { ok: false, reason: 'none' },
};
const decide = (args: Record<string, unknown>, approvedOnce = false, grants = false) => {
  const rules = toolRules(policy, () =>
    grants ? [{ tool: 'run_command', kind: 'tool' as const, target: null, rule: null }] : [],
  );
  return decideCall(tool, args, ctx, rules.ruleFor('run_command', args), approvedOnce).kind;
};

describe('P2.18 the review of a command on an SSH target', () => {
  it('runs only what the target allows; a tool-wide allow, "ANY command" and an Auto Prompter approval do not cover it', () => {
    expect(decide({ command: 'uptime', target: 'box' })).toBe('run');
    expect(decide({ command: 'cat /etc/passwd', target: 'box' })).toBe('ask');
    expect(decide({ command: 'cat /etc/passwd', target: 'box' }, true)).toBe('ask');
    expect(decide({ command: 'cat /etc/passwd', target: 'box' }, false, true)).toBe('ask');
    // The same policy runs that command here without asking: the local rules are not the target's.
    expect(decide({ command: 'cat /etc/passwd' }, false, false)).toBe('ask'); // no OS sandbox in this test
    expect(decide({ command: 'rm -rf / ; echo', target: 'box' })).toBe('refuse');
    expect(decide({ command: 'reboot', target: 'box' })).toBe('refuse');
    expect(decide({ command: 'uptime', target: 'nope' })).toBe('refuse');
  });

  it('the tool-wide deny refuses commands on targets too', () => {
    const denied = parsePolicy(
      JSON.stringify({
        tools: { deny: ['run_command'] },
        ssh: { targets: { box: { host: 'h', user: 'me', hostKey: FP, allow: ['*'] } } },
      }),
      '/ws/.maestro/policy.json',
    );
    const rules = toolRules(denied, () => []);
    const args = { command: 'uptime', target: 'box' };
    expect(decideCall(runCommandTool(denied), args, ctx, rules.ruleFor('run_command', args), false).kind).toBe(
      'refuse',
    );
  });

  it('a remote card offers no command prefix, and a local prefix grant does not stretch to a target', () => {
    expect(grantOptions('run_command', { command: 'npm test', target: 'box' })).toEqual({
      target: { kind: 'call', value: null },
      prefixes: [],
    });
    const local = { tool: 'run_command', kind: 'prefix' as const, target: null, rule: 'npm test *' };
    expect(grantCovers(local, 'run_command', { command: 'npm test --ci' })).toBe(true);
    expect(grantCovers(local, 'run_command', { command: 'npm test --ci', target: 'box' })).toBe(false);
  });
});
