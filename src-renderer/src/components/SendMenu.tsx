// The menu on a "Send #N" header: rewind files, the conversation or both to the start of that Send, or fork a new
// task from there. Each opens a confirmation (CheckpointDialogs). Rewinds are refused while a job of the task is
// active and need the Send's checkpoint: then they stay in the menu, disabled, with the reason beside them. The list
// is drawn into <body> at the button (a feed row contains its layout, and the rows after it would paint over it) and
// works from the keyboard as a menu button does: arrows, Home, End, Escape back to the button, Tab away closes it.
import { type KeyboardEvent, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { REWIND_MODES, type RewindMode } from '../../../src-shared/checkpoints';
import { isTerminal, type Job } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import { selectCheckpointIndex } from '../store/checkpoint-index';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import type { FeedInvoke } from './feed-rows';

type Item = { id: RewindMode | 'fork'; disabled: boolean };

/** Why rewinds are refused now, or null: a job of the task is active, or the Send has no checkpoint. */
export function rewindRefusal(jobs: readonly Job[], checkpointId: string | null): 'active' | 'noCheckpoint' | null {
  if (jobs.some((j) => !isTerminal(j.status))) return 'active';
  return checkpointId === null ? 'noCheckpoint' : null;
}

export function SendMenu({ invoke, send }: { invoke: FeedInvoke; send: number }) {
  const t = useT();
  const taskId = useAppStore((s) => s.selectedTaskId);
  const checkpointId = useAppStore((s) => selectCheckpointIndex(s).atSend.get(invoke.seq)?.id ?? null);
  const refusal = useAppStore((s) => rewindRefusal(selectDetail(s)?.jobs ?? [], checkpointId));
  const openDialog = useAppStore((s) => s.openCheckpointDialog);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const reasonId = useId();
  const items: Item[] = [
    ...REWIND_MODES.map((id) => ({ id, disabled: refusal !== null })),
    { id: 'fork' as const, disabled: false },
  ];

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    setPlace(null);
    if (refocus) buttonRef.current?.focus();
  }, []);

  // Under the button, or above it when the window has no room below; right edges aligned. Placed again when the
  // feed scrolls (it moves its rows as it measures them); closed once the button is out of the window.
  const placeMenu = useCallback(() => {
    const button = buttonRef.current?.getBoundingClientRect();
    if (!button || button.bottom < 0 || button.top > window.innerHeight) {
      close(false);
      return;
    }
    const height = menuRef.current?.getBoundingClientRect().height ?? 0;
    const below = button.bottom + 4;
    const top = below + height > window.innerHeight - 8 ? Math.max(8, button.top - 4 - height) : below;
    setPlace({ top, right: Math.max(8, window.innerWidth - button.right) });
  }, [close]);
  useLayoutEffect(() => {
    if (open) placeMenu();
  }, [open, placeMenu]);

  // The first item takes the focus once the menu is placed (a hidden element cannot hold it), once per opening.
  const placed = place !== null;
  useEffect(() => {
    if (open && placed) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open, placed]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false);
    };
    const scrolled = (e: Event) => {
      if (!menuRef.current?.contains(e.target as Node)) placeMenu();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('scroll', scrolled, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('scroll', scrolled, true);
    };
  }, [open, placeMenu, close]);

  const choose = (item: Item) => {
    if (item.disabled || !taskId) return;
    close(false);
    if (item.id === 'fork') openDialog({ kind: 'fork', taskId, send, label: invoke.label });
    else if (checkpointId) {
      openDialog({ kind: 'rewind', taskId, mode: item.id, send, label: invoke.label, checkpointId });
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const all = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => all[(i + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(all.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(true);
        return;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="send-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('checkpoint.menu', { send: invoke.label })}
        title={t('checkpoint.menu', { send: invoke.label })}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        data-testid="send-menu"
        data-send={send}
      >
        ⋯
      </button>
      {open
        ? createPortal(
            <div
              ref={menuRef}
              className="send-menu"
              style={place ? { top: place.top, right: place.right } : { visibility: 'hidden' }}
              data-testid="send-menu-items"
            >
              <div role="menu" aria-label={t('checkpoint.menu', { send: invoke.label })} onKeyDown={onKeyDown}>
                {items.map((item) => (
                  <button
                    key={item.id}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-disabled={item.disabled || undefined}
                    aria-describedby={item.disabled ? reasonId : undefined}
                    onClick={() => choose(item)}
                    data-testid={`send-menu-${item.id}`}
                  >
                    {t(`checkpoint.menu.${item.id}`)}
                  </button>
                ))}
              </div>
              {refusal ? (
                <p id={reasonId} className="send-menu-reason" data-testid="send-menu-reason">
                  {t(refusal === 'active' ? 'checkpoint.menu.active' : 'checkpoint.menu.noCheckpoint')}
                </p>
              ) : null}
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
