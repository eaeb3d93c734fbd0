// No link in the window opens by itself: a click (or middle click) on an external link anywhere — a model's answer,
// browser_handoff's Open button, whatever renders one next — is stopped and handed to the confirmation
// (LinkConfirm.tsx), which opens it only when the person says so. A link the app itself made and marked
// `data-app-link` opens at once. Installed once on the document, in the capture phase, so no component can forget it.

/** Marks a link the app wrote itself (docs, the project page): it opens without the confirmation. */
export const APP_LINK = 'data-app-link';

const EXTERNAL = /^(?:https?:|mailto:)/i;

/** Opens `href` outside the app: in Electron the window-open handler hands it to the OS (shell/window.ts). */
export function openOutside(href: string): void {
  window.open(href, '_blank', 'noopener,noreferrer');
}

export function installLinkGuard(doc: Document, confirm: (href: string) => void): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (!(anchor instanceof HTMLAnchorElement)) return;
    const href = anchor.getAttribute('href') ?? '';
    if (!EXTERNAL.test(href)) return;
    event.preventDefault();
    event.stopPropagation();
    if (anchor.hasAttribute(APP_LINK)) openOutside(anchor.href);
    else confirm(anchor.href);
  };
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('auxclick', onClick, true);
  return () => {
    doc.removeEventListener('click', onClick, true);
    doc.removeEventListener('auxclick', onClick, true);
  };
}
