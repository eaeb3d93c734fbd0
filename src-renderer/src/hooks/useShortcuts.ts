// useShortcuts: the one window-level key listener. It works out where a key was pressed (a field, an approval card,
// under a modal dialog), asks the table in shortcuts.ts what that means, and runs the caller's handler for it. The
// composer's send is its input's own key and is matched there, from the same table.
import { useEffect, useRef } from 'react';
import { isMacPlatform, type KeyContext, type KeyTarget, matchShortcut, type ShortcutId } from './shortcuts';

export type ShortcutHandlers = Partial<Record<ShortcutId, () => void>>;

/** An approval card, and the section that holds the cards (ChatComposerPanel focuses it to point at them). */
export const APPROVAL_CARD = '[data-approval-card]';
const APPROVAL_CARDS = '[data-testid="approval-cards"]';
/** ChatComposer's textarea carries this attribute: its own keys (send) are matched in its keydown, not here. */
const COMPOSER_INPUT_ATTR = 'data-composer-input';

const TYPING_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/** Where a key event happened, for the matcher. */
export function keyTargetOf(target: EventTarget | null): KeyTarget {
  if (!(target instanceof Element)) return 'elsewhere';
  if (target.hasAttribute(COMPOSER_INPUT_ATTR)) return 'composer';
  if (isTyping(target)) return 'typing';
  if (target.closest(APPROVAL_CARD) || target.closest(APPROVAL_CARDS)) return 'card';
  return 'elsewhere';
}

function isTyping(element: Element): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return TYPING_INPUT_TYPES.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

/** A modal dialog of any component is open (a <dialog> opened with showModal, see useModalDialog). */
function modalOpen(): boolean {
  return document.querySelector('dialog:modal, [role="dialog"][aria-modal="true"]') !== null;
}

/** A menu or a popover is open (each closes on Escape by itself). */
function popupOpen(): boolean {
  return (
    document.querySelector('[role="menu"], [role="dialog"], [role="listbox"], dialog[open], :popover-open') !== null
  );
}

/** Runs `handlers` for the shortcuts they name; the latest handlers are used without re-subscribing. */
export function useShortcuts(handlers: ShortcutHandlers, mac: boolean): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });

  useEffect(() => {
    // What is open is seen before the key reaches anyone: a dialog's or a popover's own Escape listener closes it
    // (and React removes it) before the key bubbles up here, and that Escape must not also stop the job.
    const open = new WeakMap<KeyboardEvent, { modal: boolean; popup: boolean }>();
    const onKeyFirst = (e: KeyboardEvent) => {
      open.set(e, { modal: modalOpen(), popup: popupOpen() });
    };
    const onKey = (e: KeyboardEvent) => {
      const { modal, popup } = open.get(e) ?? { modal: modalOpen(), popup: popupOpen() };
      const context: KeyContext = { mac, target: keyTargetOf(e.target), modal, popup };
      const id = matchShortcut(e, context);
      const run = id ? current.current[id] : undefined;
      if (!run) return;
      e.preventDefault();
      run();
    };
    window.addEventListener('keydown', onKeyFirst, true);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKeyFirst, true);
      window.removeEventListener('keydown', onKey);
    };
  }, [mac]);
}

/**
 * Approve once or deny from the keyboard: the approval card that has focus, else the only one in the window. With
 * several and none focused, the first gets focus and nothing is decided: the next press decides the card the user
 * now sees. Clicking the card's own button keeps one code path for mouse and keys, and a busy (disabled) button
 * ignores it. True when a decision was made.
 */
export function decideFocusedCard(decision: 'approve' | 'deny'): boolean {
  let card = document.activeElement?.closest<HTMLElement>(APPROVAL_CARD) ?? null;
  if (!card) {
    // Cards on a hidden tab (the Activity tab is showing) are not what the user is looking at.
    const cards = [...document.querySelectorAll<HTMLElement>(APPROVAL_CARD)].filter((c) => c.checkVisibility());
    if (cards.length > 1) {
      cards[0]?.focus();
      return false;
    }
    card = cards[0] ?? null;
  }
  const button = card?.querySelector<HTMLButtonElement>(`[data-card-action="${decision}"]`);
  if (!button) return false;
  button.click();
  return true;
}

const visible = (el: HTMLElement) => typeof el.checkVisibility !== 'function' || el.checkVisibility();

/**
 * The pending decision, for the key that goes to it: an approval card's Approve (the first card's, tool and package
 * requests first, then settings, sign-in and browser cards' first button), else the open question's first quick
 * reply, else the composer when it answers a question. Focuses it and says whether there was one.
 */
export function focusPendingDecision(): boolean {
  const cards = [...document.querySelectorAll<HTMLElement>(`${APPROVAL_CARD}, .approval-card`)].filter(visible);
  const target =
    cards
      .map(
        (card) =>
          card.querySelector<HTMLElement>('[data-card-action="approve"]:not(:disabled)') ??
          card.querySelector<HTMLElement>('button:not(:disabled), a[href], input:not(:disabled)'),
      )
      .find((button) => button && visible(button)) ??
    document.querySelector<HTMLElement>('[data-open="true"] [data-testid="quick-reply"]:not(:disabled)') ??
    document.querySelector<HTMLElement>(`[data-mode="answer"] [${COMPOSER_INPUT_ATTR}]`);
  if (!target) return false;
  target.scrollIntoView({ block: 'nearest' });
  target.focus();
  return true;
}

/** The user's platform is a Mac: shortcuts use ⌘ there. */
export function detectMac(): boolean {
  const nav = globalThis.navigator as (Navigator & { userAgentData?: { platform?: string } }) | undefined;
  return isMacPlatform(nav?.userAgentData?.platform || nav?.platform);
}

/** Read once: the platform does not change while the page lives. */
export const IS_MAC = detectMac();
