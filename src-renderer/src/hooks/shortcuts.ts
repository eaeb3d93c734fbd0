// The keyboard shortcuts: one table of bindings (what the help overlay lists), the matcher that turns a key event into
// a shortcut, and the key labels (⌘ on a Mac, Ctrl elsewhere). Pure, so the rules are tested without a DOM.
import type { MessageKey } from '../i18n';

/**
 * Where a binding fires. `app`: anywhere but while typing or under a modal dialog. `card`: while focus is on an
 * approval card. `composer`: only from the composer's own input (its keydown asks the matcher). `dialog`: while a
 * modal dialog is open, even from one of its fields (Escape is every dialog's own key). `stop`: anywhere, the
 * composer included, but under a dialog or an open menu (whose Escape closes them) or in another field. `window`:
 * anywhere, text fields included, but under a modal dialog (a key with a modifier that types nothing).
 */
export type BindingScope = 'app' | 'card' | 'composer' | 'dialog' | 'stop' | 'window';

export interface Binding {
  /** KeyboardEvent.key; letters in lower case (matched in either case). */
  key: string;
  scope: BindingScope;
  /** Cmd on a Mac, Ctrl elsewhere. */
  mod?: boolean;
  /** 'any' for keys typed with Shift on some layouts only, such as "?". */
  shift?: boolean | 'any';
}

export interface Shortcut {
  id: string;
  label: MessageKey;
  bindings: readonly Binding[];
}

export const SHORTCUTS = [
  { id: 'newTask', label: 'shortcuts.newTask', bindings: [{ key: 'n', mod: true, scope: 'app' }] },
  { id: 'send', label: 'shortcuts.send', bindings: [{ key: 'Enter', mod: true, scope: 'composer' }] },
  {
    id: 'approveOnce',
    label: 'shortcuts.approveOnce',
    bindings: [
      { key: 'a', scope: 'card' },
      { key: 'a', mod: true, shift: true, scope: 'app' },
    ],
  },
  {
    id: 'deny',
    label: 'shortcuts.deny',
    bindings: [
      { key: 'd', scope: 'card' },
      { key: 'd', mod: true, shift: true, scope: 'app' },
    ],
  },
  // A card that appears is announced (DecisionAnnouncer) with this key, which takes the focus to its first button.
  { id: 'focusDecision', label: 'shortcuts.focusDecision', bindings: [{ key: 'g', mod: true, scope: 'window' }] },
  { id: 'nextWaiting', label: 'shortcuts.nextWaiting', bindings: [{ key: 'j', mod: true, scope: 'app' }] },
  { id: 'toggleSidebar', label: 'shortcuts.toggleSidebar', bindings: [{ key: 'b', mod: true, scope: 'app' }] },
  { id: 'help', label: 'shortcuts.help', bindings: [{ key: '?', shift: 'any', scope: 'app' }] },
  { id: 'closeDialog', label: 'shortcuts.closeDialog', bindings: [{ key: 'Escape', scope: 'dialog' }] },
  { id: 'stop', label: 'shortcuts.stop', bindings: [{ key: 'Escape', scope: 'stop' }] },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** Where the key was pressed: the composer's input, another field, an approval card, or anywhere else. */
export type KeyTarget = 'composer' | 'typing' | 'card' | 'elsewhere';

export interface KeyContext {
  mac: boolean;
  target: KeyTarget;
  /** A modal dialog is open: the rest of the window is out of reach. */
  modal: boolean;
  /** A menu or a popover (a non-modal dialog) is open: Escape is its key. */
  popup?: boolean;
}

/** The parts of a KeyboardEvent the matcher reads. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  /** True while an IME composes (Japanese input): Enter or a letter then belongs to the IME. */
  isComposing?: boolean;
}

function scopeAllows(scope: BindingScope, { target, modal, popup }: KeyContext): boolean {
  switch (scope) {
    case 'app':
      return !modal && (target === 'card' || target === 'elsewhere');
    case 'card':
      return !modal && target === 'card';
    case 'composer':
      return target === 'composer';
    case 'dialog':
      return modal;
    case 'stop':
      return !modal && !popup && target !== 'typing';
    case 'window':
      return !modal;
    default: {
      const never: never = scope;
      return never;
    }
  }
}

function keysMatch(binding: Binding, e: KeyPress, mac: boolean): boolean {
  if (e.key.toLowerCase() !== binding.key.toLowerCase()) return false;
  const mod = mac ? e.metaKey : e.ctrlKey;
  const otherMod = mac ? e.ctrlKey : e.metaKey;
  if (otherMod || e.altKey || mod !== (binding.mod ?? false)) return false;
  return binding.shift === 'any' || e.shiftKey === (binding.shift ?? false);
}

/** The shortcut a key press means where it was pressed, or null. A held key does not repeat a shortcut. */
export function matchShortcut(e: KeyPress, context: KeyContext): ShortcutId | null {
  if (e.isComposing || e.repeat) return null;
  for (const shortcut of SHORTCUTS) {
    const bindings: readonly Binding[] = shortcut.bindings;
    if (bindings.some((b) => keysMatch(b, e, context.mac) && scopeAllows(b.scope, context))) return shortcut.id;
  }
  return null;
}

/** True when the press is this shortcut at `target`: for an input that handles its own key (the composer's send). */
export function isShortcut(id: ShortcutId, e: KeyPress, context: KeyContext): boolean {
  return matchShortcut(e, context) === id;
}

const KEY_NAMES: Record<string, { mac: string; other: string }> = {
  Enter: { mac: '↩', other: 'Enter' },
  Escape: { mac: 'Esc', other: 'Esc' },
};

/** The keys of one binding as the platform writes them: "⌘⇧A" on a Mac, "Ctrl+Shift+A" elsewhere. */
export function bindingKeys(binding: Binding, mac: boolean): string[] {
  const keys: string[] = [];
  if (binding.mod) keys.push(mac ? '⌘' : 'Ctrl');
  if (binding.shift === true) keys.push(mac ? '⇧' : 'Shift');
  const named = KEY_NAMES[binding.key];
  keys.push(named ? named[mac ? 'mac' : 'other'] : binding.key.toUpperCase());
  return keys;
}

export function formatBinding(binding: Binding, mac: boolean): string {
  return bindingKeys(binding, mac).join(mac ? '' : '+');
}

/** The first binding of a shortcut, written for the platform: for hints such as "(Ctrl+Enter sends)". */
export function shortcutKeys(id: ShortcutId, mac: boolean): string {
  const shortcut = SHORTCUTS.find((s) => s.id === id) as Shortcut;
  return formatBinding(shortcut.bindings[0] as Binding, mac);
}

/** The shortcut's bindings as aria-keyshortcuts spells them: "A Control+Shift+A". */
export function ariaKeyShortcuts(id: ShortcutId, mac: boolean): string {
  const shortcut = SHORTCUTS.find((s) => s.id === id) as Shortcut;
  return shortcut.bindings
    .map((b) => {
      const keys: string[] = [];
      if (b.mod) keys.push(mac ? 'Meta' : 'Control');
      if (b.shift === true) keys.push('Shift');
      keys.push(b.key.length === 1 ? b.key.toUpperCase() : b.key);
      return keys.join('+');
    })
    .join(' ');
}

/** A Mac (or iPad with a keyboard), from navigator.userAgentData.platform or navigator.platform. */
export function isMacPlatform(platform: string | undefined): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform ?? '');
}
