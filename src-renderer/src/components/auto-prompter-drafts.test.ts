import { describe, expect, it } from 'vitest';
import { type AutoPrompterRule, AutoPrompterSettings } from '../../../src-shared/auto-prompter';
import { duplicateArgs, ruleErrors, toDraft, toRule } from './auto-prompter-drafts';

const RULES: AutoPrompterRule[] = [
  { id: 'no-listing', match: { tool: 'list_dir' }, action: 'deny', reason: 'Ask instead.' },
  { match: { tool: 'mcp__gh__*', args: { repo: { equals: '' } } }, action: 'instruct', text: 'Say which repo.' },
  {
    id: 'tests',
    match: { tool: 'run_command', args: { command: { regex: '^npm test$' }, cwd: { glob: 'src/**' } } },
    action: 'approve_once',
  },
];

describe('the Auto Prompter form’s drafts', () => {
  it('a file’s rules come back unchanged through the form', () => {
    expect(RULES.map((r) => toRule(toDraft(r)))).toEqual(RULES);
  });

  it('a schema issue lands on the field of the form it concerns', () => {
    const drafts = RULES.map(toDraft);
    const bad = drafts.map(toRule);
    (bad[0] as { match: { tool: string } }).match.tool = '';
    (bad[2] as { match: { args: Record<string, unknown> } }).match.args.cwd = { regex: '(?=x)' };
    const parsed = AutoPrompterSettings.safeParse({ enabled: true, rules: bad });
    expect(parsed.success).toBe(false);
    const errors = ruleErrors(parsed.error?.issues ?? [], drafts);
    expect(Object.keys(errors).sort()).toEqual(['rules.0.tool', 'rules.2.args.1']);
    expect(errors['rules.2.args.1']).toMatch(/lookahead/);
    expect(ruleErrors([{ path: ['rules', 1, 'match', 'args'], message: 'give one' }], drafts)).toEqual({
      'rules.1.args': 'give one',
    });
    expect(ruleErrors([{ path: ['rules', 1, 'text'], message: 'empty' }], drafts)).toEqual({
      'rules.1.words': 'empty',
    });
  });

  it('the same argument tested twice in one rule is refused on its second row', () => {
    const draft = toDraft(RULES[2] as AutoPrompterRule);
    draft.args.push({ name: 'command', kind: 'equals', value: 'x' });
    expect(duplicateArgs([draft])).toEqual({ 'rules.0.args.2': 'command is tested twice' });
  });
});
