// What the live region says when a decision waits: the first card by name (a tool request's tool, a package's name),
// how many more wait, else the open question's words; always with the key that goes there; nothing when nothing
// waits; and the model's text made safe to read (a bidi override shows as its escape, not as reordered text).
import { describe, expect, it } from 'vitest';
import type { PackageRequest, ToolRequest } from '../../../src-shared/entities';
import { english, translator } from '../i18n';
import { NO_PENDING } from '../store/requests-slice';
import { announcement } from './DecisionAnnouncer';

const tool = (name: string) => ({ id: `t-${name}`, tool: name }) as ToolRequest;
const pkg = (name: string) => ({ id: `p-${name}`, name }) as PackageRequest;

describe('announcement', () => {
  it('names the first card and the key that goes to it, and how many more wait', () => {
    expect(announcement({ tool: [tool('run_command')], package: [] }, null, english)).toBe(
      'Approval needed: run_command. Ctrl+G goes to it.',
    );
    expect(
      announcement({ tool: [tool('edit_file'), tool('run_command')], package: [pkg('left-pad')] }, null, english),
    ).toBe('Approval needed: edit_file. Ctrl+G goes to it. 2 more requests wait.');
    expect(announcement({ tool: [], package: [pkg('left-pad')] }, 'ignored while a card waits', english)).toBe(
      'Approval needed: install the package left-pad. Ctrl+G goes to it.',
    );
  });

  it('says the question when no card waits, and nothing when nothing does', () => {
    expect(announcement(NO_PENDING, 'Which colour?', english)).toBe(
      'The agent asks: Which colour? Ctrl+G goes to the answer.',
    );
    expect(announcement(NO_PENDING, null, english)).toBe('');
    expect(announcement(NO_PENDING, 'どの色?', translator('ja'))).toContain('エージェントからの質問: どの色?');
  });

  it('reads the model’s text through the untrusted-text renderer', () => {
    const said = announcement({ tool: [tool('rm\u202E-rf')], package: [] }, null, english);
    expect(said).not.toContain('\u202E');
    expect(said).toContain('U+202E');
  });
});
