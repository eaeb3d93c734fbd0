// How the UI words a grant — on the card's choice and in the task's list — from its kind and what it names, in the
// person's language; the blanket grant always in its own capitalised words. What the model wrote (a command, a rule, a
// path) is shown as the untrusted-text renderer shows it, whole and on one line: hidden characters as ⟨U+…⟩.
import type { GrantKind, GrantTargetKind } from '../../../src-shared/grants';
import { plainUntrusted } from '../../../src-shared/untrusted-text';
import type { Translate } from '../i18n';

export interface GrantWords {
  tool: string;
  kind: GrantKind;
  target: { kind: GrantTargetKind; value: string | null } | null;
  rule: string | null;
}

const shown = (text: string) => plainUntrusted(text, { mode: 'command', multiline: false });

export function grantWords(t: Translate, g: GrantWords): string {
  switch (g.kind) {
    case 'tool':
      return g.tool === 'run_command' ? t('grant.tool.command') : t('grant.tool.other', { tool: shown(g.tool) });
    case 'prefix':
      return t('grant.prefix', { rule: shown(g.rule ?? '') });
    case 'exact': {
      const value = g.target?.value == null ? null : shown(g.target.value);
      switch (g.target?.kind) {
        case 'command':
          return t('grant.exact.command', { value: value ?? '' });
        case 'path':
          return t('grant.exact.path', { tool: g.tool, value: value ?? '' });
        case 'agent':
          return t('grant.exact.agent', { tool: g.tool, value: value ?? '' });
        case 'call':
        case undefined:
          return value === null
            ? t('grant.exact.call', { tool: g.tool })
            : t('grant.exact.callValue', { tool: g.tool, value });
      }
    }
  }
}
