// The Auto Prompter's rules made ready to evaluate: the tool-name glob and each argument test compiled once per
// snapshot, and whether a rule matches one call (tool name + schema-parsed arguments).
import path from 'node:path';
import type { ArgMatcher, AutoPrompterRule } from '../../src-shared/auto-prompter';
import { compileLinear, type LinearRegex } from '../../src-shared/linear-regex';
import { globToRegExp } from '../tools/glob-match';
import { resolveInWorkspace } from '../tools/sandbox';

export interface CompiledRule {
  index: number;
  rule: AutoPrompterRule;
  tool: LinearRegex;
  args: [name: string, test: (value: string, workspacePath: string) => boolean][];
}

function compileMatcher(m: ArgMatcher): (value: string, workspacePath: string) => boolean {
  if (m.regex !== undefined) {
    // Linear time: the rule is a person's, but the text it is tested on is the model's and of any length.
    const compiled = compileLinear(m.regex);
    if (!compiled.ok) throw new Error(`an Auto Prompter rule's regex ${JSON.stringify(m.regex)} ${compiled.error}`);
    const re = compiled.re;
    return (value) => re.test(value);
  }
  if (m.glob !== undefined) {
    const re = globToRegExp(m.glob);
    return (value, workspacePath) => re.test(workspaceRelative(value, workspacePath));
  }
  const expected = m.equals;
  return (value) => value === expected;
}

export function compileRules(rules: readonly AutoPrompterRule[]): CompiledRule[] {
  return rules.map((rule, index) => ({
    index,
    rule,
    tool: globToRegExp(rule.match.tool),
    args: Object.entries(rule.match.args ?? {}).map(([name, m]) => [name, compileMatcher(m)]),
  }));
}

/**
 * Whether the rule matches the call: its tool glob matches the name and every argument test passes. An argument
 * that is absent, or not a string, number or boolean, fails its test.
 */
export function ruleMatches(rule: CompiledRule, tool: string, args: unknown, workspacePath: string): boolean {
  if (!rule.tool.test(tool)) return false;
  if (rule.args.length === 0) return true;
  if (args === null || typeof args !== 'object') return false;
  return rule.args.every(([name, test]) => {
    const value = (args as Record<string, unknown>)[name];
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : null;
    return text !== null && test(text, workspacePath);
  });
}

/**
 * The path a glob is tested on: workspace-relative with `/`, as the tools would resolve it (real path, so neither
 * `./x`, `a/../x`, an absolute spelling nor a link inside the workspace dodges a rule); a path the sandbox refuses is
 * only normalized (the tool refuses it anyway).
 */
export function workspaceRelative(given: string, workspacePath: string): string {
  const resolved = resolveInWorkspace(workspacePath, given);
  if (resolved.ok) return resolved.rel;
  const normalized = path.posix.normalize(given.replace(/\\/g, '/')).replace(/\/+$/, '');
  return normalized === '' ? '.' : normalized;
}
