// How a grant is worded on the card and in the task's list: each kind names what it covers, in English and Japanese,
// and the blanket grant never reads like a narrow one.
import { describe, expect, it } from 'vitest';
import { translator } from '../i18n';
import { grantWords } from './grant-words';

const en = translator('en');
const ja = translator('ja');

describe('grant words', () => {
  it('each kind says what it covers; the blanket grant says ANY', () => {
    const command = { kind: 'command' as const, value: 'npm test' };
    expect(grantWords(en, { tool: 'run_command', kind: 'exact', target: command, rule: null })).toBe(
      'This command only: npm test',
    );
    expect(grantWords(en, { tool: 'run_command', kind: 'prefix', target: null, rule: 'git diff *' })).toBe(
      'Commands matching git diff * (no ; && | > $( ) after it)',
    );
    expect(grantWords(en, { tool: 'run_command', kind: 'tool', target: null, rule: null })).toBe(
      'ANY command in this task (everything, in the sandbox)',
    );
    expect(
      grantWords(en, { tool: 'write_file', kind: 'exact', target: { kind: 'path', value: 'src/a.ts' }, rule: null }),
    ).toBe('write_file on src/a.ts only');
    expect(
      grantWords(en, { tool: 'a2a_send', kind: 'exact', target: { kind: 'agent', value: 'helper' }, rule: null }),
    ).toBe('a2a_send to the agent helper only');
    expect(
      grantWords(en, { tool: 'mcp__web__fetch', kind: 'exact', target: { kind: 'call', value: null }, rule: null }),
    ).toBe('This exact call of mcp__web__fetch only');
    expect(
      grantWords(en, {
        tool: 'mcp__web__fetch',
        kind: 'exact',
        target: { kind: 'call', value: '{"url":"https://a/"}' },
        rule: null,
      }),
    ).toBe('mcp__web__fetch with exactly {"url":"https://a/"}');
    expect(grantWords(en, { tool: 'mcp__web__fetch', kind: 'tool', target: null, rule: null })).toBe(
      'ANY call of mcp__web__fetch in this task',
    );
    expect(grantWords(ja, { tool: 'run_command', kind: 'exact', target: command, rule: null })).toBe(
      'このコマンドだけ: npm test',
    );
    expect(grantWords(ja, { tool: 'run_command', kind: 'tool', target: null, rule: null })).toBe(
      'このタスクのすべてのコマンド（サンドボックス内で何でも）',
    );
  });

  it('a command with hidden characters is worded with them shown, on one line', () => {
    const command = { kind: 'command' as const, value: 'cat README.md \u202E\u2066; sh .x\u2069\nrm -rf ~' };
    const words = grantWords(en, { tool: 'run_command', kind: 'exact', target: command, rule: null });
    expect(words).toBe('This command only: cat README.md ⟨U+202E⟩⟨U+2066⟩; sh .x⟨U+2069⟩⟨U+000A⟩rm -rf ~');
    const rule = grantWords(en, { tool: 'run_command', kind: 'prefix', target: null, rule: 'npm\u00A0test *' });
    expect(rule).toContain('npm⟨U+00A0⟩test *');
  });
});
