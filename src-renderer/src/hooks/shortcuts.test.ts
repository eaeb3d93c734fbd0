// The shortcut matcher: each binding where it applies and nowhere else (not while typing, not under a modal dialog
// unless it is the dialog's own key, A/D only on a focused card, send only in the composer), ⌘ on a Mac and Ctrl
// elsewhere, IME composition and key repeat ignored; and the keys as the help overlay writes them.
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { ja } from '../i18n/ja';
import {
  ariaKeyShortcuts,
  bindingKeys,
  formatBinding,
  isMacPlatform,
  type KeyContext,
  type KeyPress,
  type KeyTarget,
  matchShortcut,
  SHORTCUTS,
  shortcutKeys,
} from './shortcuts';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const at = (target: KeyTarget, extra: Partial<KeyContext> = {}): KeyContext => ({
  mac: false,
  target,
  modal: false,
  ...extra,
});

describe('matchShortcut', () => {
  it('Ctrl+N is a new task on Windows/Linux, ⌘N on a Mac, and neither the other way round', () => {
    expect(matchShortcut(press('n', { ctrlKey: true }), at('elsewhere'))).toBe('newTask');
    expect(matchShortcut(press('n', { metaKey: true }), at('elsewhere', { mac: true }))).toBe('newTask');
    expect(matchShortcut(press('n', { metaKey: true }), at('elsewhere'))).toBeNull();
    expect(matchShortcut(press('n', { ctrlKey: true }), at('elsewhere', { mac: true }))).toBeNull();
    expect(matchShortcut(press('n'), at('elsewhere'))).toBeNull();
    expect(matchShortcut(press('n', { ctrlKey: true, altKey: true }), at('elsewhere'))).toBeNull();
    expect(matchShortcut(press('N', { ctrlKey: true, shiftKey: true }), at('elsewhere'))).toBeNull();
  });

  it('app shortcuts do not fire while typing in a field or under a modal dialog', () => {
    for (const target of ['typing', 'composer'] as const) {
      expect(matchShortcut(press('n', { ctrlKey: true }), at(target)), target).toBeNull();
      expect(matchShortcut(press('j', { ctrlKey: true }), at(target)), target).toBeNull();
      expect(matchShortcut(press('?', { shiftKey: true }), at(target)), target).toBeNull();
    }
    expect(matchShortcut(press('n', { ctrlKey: true }), at('elsewhere', { modal: true }))).toBeNull();
    expect(matchShortcut(press('?', { shiftKey: true }), at('elsewhere', { modal: true }))).toBeNull();
  });

  it('Ctrl+Enter sends only from the composer itself', () => {
    expect(matchShortcut(press('Enter', { ctrlKey: true }), at('composer'))).toBe('send');
    expect(matchShortcut(press('Enter', { metaKey: true }), at('composer', { mac: true }))).toBe('send');
    expect(matchShortcut(press('Enter'), at('composer'))).toBeNull();
    expect(matchShortcut(press('Enter', { ctrlKey: true }), at('typing'))).toBeNull();
    expect(matchShortcut(press('Enter', { ctrlKey: true }), at('elsewhere'))).toBeNull();
  });

  it('A and D decide a focused approval card; elsewhere they are plain letters', () => {
    expect(matchShortcut(press('a'), at('card'))).toBe('approveOnce');
    expect(matchShortcut(press('d'), at('card'))).toBe('deny');
    expect(matchShortcut(press('A', { shiftKey: true }), at('card'))).toBeNull();
    for (const target of ['elsewhere', 'typing', 'composer'] as const) {
      expect(matchShortcut(press('a'), at(target)), target).toBeNull();
      expect(matchShortcut(press('d'), at(target)), target).toBeNull();
    }
    expect(matchShortcut(press('a'), at('card', { modal: true }))).toBeNull();
  });

  it('Ctrl+Shift+A / D decide from anywhere but a field', () => {
    expect(matchShortcut(press('A', { ctrlKey: true, shiftKey: true }), at('elsewhere'))).toBe('approveOnce');
    expect(matchShortcut(press('D', { ctrlKey: true, shiftKey: true }), at('card'))).toBe('deny');
    expect(matchShortcut(press('A', { metaKey: true, shiftKey: true }), at('elsewhere', { mac: true }))).toBe(
      'approveOnce',
    );
    expect(matchShortcut(press('A', { ctrlKey: true, shiftKey: true }), at('typing'))).toBeNull();
    expect(matchShortcut(press('a', { ctrlKey: true }), at('elsewhere'))).toBeNull();
  });

  it('Ctrl+J is the next waiting task, and ? opens the help with or without Shift', () => {
    expect(matchShortcut(press('j', { ctrlKey: true }), at('elsewhere'))).toBe('nextWaiting');
    expect(matchShortcut(press('?', { shiftKey: true }), at('elsewhere'))).toBe('help');
    expect(matchShortcut(press('?'), at('card'))).toBe('help');
  });

  it('Ctrl+G goes to the pending decision from anywhere, a text field or the composer included, but not under a dialog', () => {
    for (const target of ['elsewhere', 'typing', 'composer', 'card'] as const) {
      expect(matchShortcut(press('g', { ctrlKey: true }), at(target)), target).toBe('focusDecision');
    }
    expect(matchShortcut(press('g', { metaKey: true }), at('composer', { mac: true }))).toBe('focusDecision');
    expect(matchShortcut(press('g', { ctrlKey: true }), at('typing', { modal: true }))).toBeNull();
    expect(matchShortcut(press('g'), at('elsewhere'))).toBeNull();
    expect(matchShortcut(press('g'), at('typing'))).toBeNull();
    expect(matchShortcut(press('G', { ctrlKey: true, shiftKey: true }), at('elsewhere'))).toBeNull();
  });

  it('Escape closes a modal dialog even from one of its fields; without one it stops the job, but not from a menu or another field', () => {
    expect(matchShortcut(press('Escape'), at('typing', { modal: true }))).toBe('closeDialog');
    expect(matchShortcut(press('Escape'), at('elsewhere', { modal: true }))).toBe('closeDialog');
    expect(matchShortcut(press('Escape'), at('elsewhere'))).toBe('stop');
    expect(matchShortcut(press('Escape'), at('composer'))).toBe('stop');
    expect(matchShortcut(press('Escape'), at('card'))).toBe('stop');
    // An open menu or popover has Escape to close it; a field (a rename) has it to give up.
    expect(matchShortcut(press('Escape'), at('elsewhere', { popup: true }))).toBeNull();
    expect(matchShortcut(press('Escape'), at('composer', { popup: true }))).toBeNull();
    expect(matchShortcut(press('Escape'), at('typing'))).toBeNull();
  });

  it('ignores keys while an IME composes and held-down repeats', () => {
    expect(matchShortcut(press('Enter', { ctrlKey: true, isComposing: true }), at('composer'))).toBeNull();
    expect(matchShortcut(press('a', { repeat: true }), at('card'))).toBeNull();
  });
});

describe('key labels', () => {
  it('writes ⌘ and ⇧ on a Mac, Ctrl+ and Shift+ elsewhere', () => {
    expect(shortcutKeys('newTask', false)).toBe('Ctrl+N');
    expect(shortcutKeys('newTask', true)).toBe('⌘N');
    expect(shortcutKeys('send', false)).toBe('Ctrl+Enter');
    expect(shortcutKeys('send', true)).toBe('⌘↩');
    expect(formatBinding({ key: 'a', mod: true, shift: true, scope: 'app' }, false)).toBe('Ctrl+Shift+A');
    expect(formatBinding({ key: 'a', mod: true, shift: true, scope: 'app' }, true)).toBe('⌘⇧A');
    expect(bindingKeys({ key: '?', shift: 'any', scope: 'app' }, false)).toEqual(['?']);
    expect(shortcutKeys('closeDialog', true)).toBe('Esc');
  });

  it('spells the bindings for aria-keyshortcuts', () => {
    expect(ariaKeyShortcuts('approveOnce', false)).toBe('A Control+Shift+A');
    expect(ariaKeyShortcuts('deny', true)).toBe('D Meta+Shift+D');
    expect(ariaKeyShortcuts('send', false)).toBe('Control+Enter');
  });

  it('tells a Mac from its platform string', () => {
    expect(isMacPlatform('MacIntel')).toBe(true);
    expect(isMacPlatform('macOS')).toBe(true);
    expect(isMacPlatform('iPad')).toBe(true);
    expect(isMacPlatform('Win32')).toBe(false);
    expect(isMacPlatform('Linux x86_64')).toBe(false);
    expect(isMacPlatform(undefined)).toBe(false);
  });
});

describe('the table', () => {
  it('has unique ids, no two shortcuts on one key in one scope, and a label in English and Japanese', () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = SHORTCUTS.flatMap((s) =>
      s.bindings.map((b) => `${b.scope}:${'mod' in b && b.mod ? 'mod+' : ''}${'shift' in b ? b.shift : ''}${b.key}`),
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of SHORTCUTS) {
      expect(en[s.label], s.id).toBeTruthy();
      expect(ja[s.label], s.id).toBeTruthy();
    }
  });
});
