// useModalDialog: every dialog of the app is a native <dialog> opened with showModal(), so the page behind it is inert
// (no click, no Tab, no screen reader walks into it) and Escape is its `cancel`; this hook opens it, keeps Tab inside
// it at both ends (a modal dialog would otherwise let Tab out to the browser's own controls), and when it goes gives
// the focus back to the element that had it when it opened, or, when that one is gone, to a fallback.
import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';

export interface ModalDialogOptions {
  /** Where the focus goes when the opener is gone or was nothing (a dialog opened by a key with no focus). */
  fallback?: () => HTMLElement | null;
  /** A click outside the dialog's panel (on its backdrop) closes it: for panels such as the notification list. */
  lightDismiss?: boolean;
}

const FOCUSABLE = [
  'a[href]',
  'button:not(:disabled)',
  'input:not(:disabled):not([type="hidden"])',
  'select:not(:disabled)',
  'textarea:not(:disabled)',
  'summary',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/** The elements Tab stops at inside `root`, in document order (hidden ones skipped). */
export function tabStops(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
  );
}

/** Tab from the last stop goes to the first, Shift+Tab from the first to the last: the focus never leaves. */
function keepFocusIn(dialog: HTMLElement, event: KeyboardEvent) {
  const stops = tabStops(dialog);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog || !dialog.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

function giveFocusBack(opener: Element | null, fallback: (() => HTMLElement | null) | undefined) {
  if (opener instanceof HTMLElement && opener !== document.body && opener.isConnected) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  fallback?.()?.focus();
}

/** The ref goes on the <dialog>; `onClose` runs on Escape (and a backdrop click with lightDismiss). */
export function useModalDialog(
  onClose: () => void,
  options: ModalDialogOptions = {},
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  const latest = useRef({ onClose, options });
  useEffect(() => {
    latest.current = { onClose, options };
  });

  // A layout effect: the dialog is modal before any child's effect moves the focus into it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      latest.current.onClose();
    };
    // Escape is taken at its keydown as well: Chromium sends no `cancel` while the focus is on the <dialog> itself
    // (a list with nothing to focus in it).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') keepFocusIn(dialog, e);
      else if (e.key === 'Escape' && !e.isComposing) {
        e.preventDefault();
        latest.current.onClose();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (e.target === dialog && latest.current.options.lightDismiss) latest.current.onClose();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('keydown', onKey);
    dialog.addEventListener('click', onClick);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('keydown', onKey);
      dialog.removeEventListener('click', onClick);
      if (dialog.open) dialog.close();
      giveFocusBack(opener, latest.current.options.fallback);
    };
  }, []);

  return ref;
}
