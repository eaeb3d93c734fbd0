// Serves the built renderer at / (no token needed: the page reads it from the URL fragment).
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** The file `pathname` names under `root` with the headers to serve it with, or null when it names none (or one
 * outside `root`). The HTTP bridge and the desktop window's app:// protocol both serve the renderer through it. */
export function readStatic(root: string, pathname: string): { data: Buffer; headers: Record<string, string> } | null {
  const base = path.resolve(root);
  let relative: string;
  try {
    relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const file = path.resolve(base, relative);
  if (!file.startsWith(base + path.sep)) return null;
  let data: Buffer;
  try {
    // The real path too: a symlink inside the folder must not lead out of it.
    if (!fs.realpathSync(file).startsWith(fs.realpathSync(base) + path.sep)) return null;
    data = fs.readFileSync(file);
  } catch {
    return null;
  }
  const headers = {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': String(data.length),
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
  return { data, headers };
}

/** True when it answered; false when `pathname` names no file under `root` (or names one outside it). */
export function serveStatic(root: string, pathname: string, res: ServerResponse): boolean {
  const found = readStatic(root, pathname);
  if (!found) return false;
  res.writeHead(200, found.headers);
  res.end(found.data);
  return true;
}
