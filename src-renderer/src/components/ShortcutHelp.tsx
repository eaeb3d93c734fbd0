// The keyboard shortcuts overlay, opened with "?": every row of the shortcut table with its keys as this platform
// writes them (⌘ on a Mac, Ctrl elsewhere) and where the keys work.
import { Fragment, useEffect, useId, useRef } from 'react';
import { type Binding, bindingKeys, SHORTCUTS } from '../hooks/shortcuts';
import { useModalDialog } from '../hooks/useModalDialog';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../hooks/useT';

interface Props {
  onClose(): void;
}

export function ShortcutHelp({ onClose }: Props) {
  const headingId = useId();
  // Opened by "?" with the focus nowhere, it gives the focus to its header button when it closes.
  const ref = useModalDialog(onClose, { fallback: () => document.querySelector('[data-testid="open-shortcuts"]') });
  const closeRef = useRef<HTMLButtonElement>(null);
  const t = useT();

  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  return (
    <dialog ref={ref} className="modal" aria-labelledby={headingId} data-testid="shortcut-help">
      <div className="dialog shortcut-help">
        <h2 id={headingId}>{t('shortcuts.title')}</h2>
        <table className="shortcut-table">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.id} data-testid="shortcut-row" data-shortcut={shortcut.id}>
                <th scope="row">{t(shortcut.label)}</th>
                <td>
                  {shortcut.bindings.map((binding: Binding, i) => (
                    <Fragment key={`${binding.scope}:${binding.key}:${binding.mod ?? false}`}>
                      {i > 0 ? <span className="shortcut-or"> {t('shortcuts.or')} </span> : null}
                      <span className="shortcut-binding" data-testid="shortcut-keys">
                        {bindingKeys(binding, IS_MAC).map((key) => (
                          <kbd key={key}>{key}</kbd>
                        ))}
                      </span>
                      <span className="shortcut-scope"> {t(`shortcuts.scope.${binding.scope}`)}</span>
                    </Fragment>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="dialog-actions">
          <button ref={closeRef} type="button" className="button" onClick={onClose} data-testid="shortcut-help-close">
            {t('shortcuts.close')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
