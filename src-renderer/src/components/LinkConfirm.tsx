// The confirmation before a link the model wrote opens (link-guard.ts stops every click on one): the whole address
// as it will open, its site (or a mail link's recipients) emphasised, an international site name shown as the
// punycode it is, and the data it sends along listed — all through the untrusted-text renderer. Open / Cancel; a
// modal <dialog> (useModalDialog), so the focus stays in it, Escape cancels, and the focus goes back where it was.
import { useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../hooks/useT';
import { installLinkGuard, openOutside } from '../link-guard';
import { type LinkParts, linkParts } from '../link-parts';
import { UntrustedText } from './UntrustedText';

/** Listens for links to confirm and shows the confirmation for the one clicked last. */
export function LinkConfirmHost() {
  const [parts, setParts] = useState<LinkParts | null>(null);
  useEffect(
    () =>
      installLinkGuard(document, (href) => {
        const parsed = linkParts(href);
        if (parsed) setParts(parsed);
      }),
    [],
  );
  if (!parts) return null;
  return (
    <LinkConfirm
      parts={parts}
      onCancel={() => setParts(null)}
      onOpen={() => {
        openOutside(parts.href);
        setParts(null);
      }}
    />
  );
}

interface Props {
  parts: LinkParts;
  onOpen(): void;
  onCancel(): void;
}

export function LinkConfirm({ parts, onOpen, onCancel }: Props) {
  const t = useT();
  const ref = useModalDialog(onCancel);
  const headingId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  // The safe choice has the focus, so Enter does not open by accident.
  useEffect(() => cancelRef.current?.focus(), []);

  return (
    <dialog ref={ref} className="dialog link-confirm" aria-labelledby={headingId} data-testid="link-confirm">
      <h2 id={headingId}>{t('link.title')}</h2>
      <p className="field-hint">{t('link.written')}</p>
      <dl className="link-fields">
        <dt>{t(parts.scheme === 'mailto' ? 'link.recipient' : 'link.host')}</dt>
        <dd>
          <strong className="link-host" data-testid="link-host">
            <UntrustedText text={parts.emphasis} mode="command" multiline={false} />
          </strong>
        </dd>
        <dt>{t('link.address')}</dt>
        <dd>
          <code className="link-url" data-testid="link-url">
            <UntrustedText text={parts.before} mode="command" multiline={false} />
            <strong className="link-url-host">
              <UntrustedText text={parts.emphasis} mode="command" multiline={false} />
            </strong>
            <UntrustedText text={parts.after} mode="command" multiline={false} />
          </code>
        </dd>
        {parts.query.length > 0 ? (
          <>
            <dt>{t('link.query')}</dt>
            <dd>
              <ul className="link-query" data-testid="link-query">
                {parts.query.map((q, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a name may repeat; the list never reorders.
                  <li key={i}>
                    <code>
                      <UntrustedText text={q.name} multiline={false} />
                    </code>{' '}
                    = <UntrustedText text={q.value} />
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {parts.punycode ? (
        <p className="approval-warning" role="note" data-testid="link-punycode">
          {t('link.punycode', { host: parts.emphasis })}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button ref={cancelRef} type="button" className="button" onClick={onCancel} data-testid="link-cancel">
          {t('link.cancel')}
        </button>
        <button type="button" className="button button-primary" onClick={onOpen} data-testid="link-open">
          {t('link.open')}
        </button>
      </div>
    </dialog>
  );
}
