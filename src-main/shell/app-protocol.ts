// The window's own origin, app://maestro/: the built renderer is served from it instead of file://, so the page is a
// secure origin of its own (CSP 'self' means the app, not the whole disk) and nothing outside the renderer folder can
// be read through it.
import { protocol } from 'electron';
import { readStatic } from '../bridge/static-files';

export const APP_SCHEME = 'app';
export const APP_HOST = 'maestro';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/`;

/** Must run before the app is ready: Chromium fixes the schemes' privileges at start. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    // Standard: real origins and relative URLs; secure: a secure context, like https.
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** The answer to one app:// request: a file of `rendererDir`, or 404 for anything else (another host, `..`, a
 * symlink out of the folder, a missing file). */
export function answerAppRequest(rendererDir: string, request: Request): Response {
  const url = new URL(request.url);
  const found = url.host === APP_HOST && request.method === 'GET' ? readStatic(rendererDir, url.pathname) : null;
  if (!found) return new Response(`not found: ${url.pathname}`, { status: 404 });
  return new Response(new Uint8Array(found.data), { status: 200, headers: found.headers });
}

/** Serves `rendererDir` at app://maestro/ in the default session. Call once the app is ready. */
export function serveAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => answerAppRequest(rendererDir, request));
}
