// What the window's web APIs may do: only what the UI uses, and only from the app's own pages. The UI copies code
// blocks with `navigator.clipboard.writeText` (Chromium's 'clipboard-sanitized-write'); OS notifications come from
// main, never from the page. Camera, microphone, location, reading the clipboard and every other permission are
// refused, asked or checked.
import type { Session } from 'electron';

export const GRANTED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

const originOf = (url: string | undefined): string | null => {
  if (!url) return null;
  try {
    // Not URL.origin: Node calls the origin of a scheme it does not know (app:) "null", Chromium does not.
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return null;
  }
};

/** `appOrigins`: the origins the window's own pages load from (app://maestro, and the dev server in development). */
export function lockDownPermissions(session: Session, appOrigins: readonly string[]): void {
  const allowed = (permission: string, origin: string | null) =>
    GRANTED_PERMISSIONS.includes(permission) && origin !== null && appOrigins.includes(origin);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(allowed(permission, originOf(details.requestingUrl)));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowed(permission, originOf(requestingOrigin)),
  );
}
