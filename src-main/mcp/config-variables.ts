// The `${…}` variables of the mcp.json shapes other tools write (Claude Code, VS Code, Cursor), resolved without ever
// reading MAESTRO's own environment: folder variables become paths; a secret's placeholder (`${input:id}`,
// `${env:NAME}`, `${NAME}`) marks where the server's saved token goes; `${NAME:-default}` is its default.

import os from 'node:os';
import path from 'node:path';

/** Where a token goes in a value: the text before and after its placeholder. */
export interface TokenSpot {
  before: string;
  after: string;
  /** The placeholder as written (`${input:github-token}`), for messages. */
  placeholder: string;
}

const VARIABLE = /\$\{([^}]*)\}/g;
/** What a placeholder of a secret names: VS Code's input, an environment variable (VS Code/Cursor, Claude Code). */
const SECRET = /^(?:input:[A-Za-z0-9_.-]+|env:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*)$/;
const WITH_DEFAULT = /^[A-Za-z_][A-Za-z0-9_]*:-(.*)$/s;

export interface VariableContext {
  workspacePath: string;
  /** Where a field is, for messages (`mcpServers.github.headers.Authorization`). */
  at: string;
}

export class VariableError extends Error {}

/** The folder variables both editors know, by name. */
function folderVariable(name: string, workspacePath: string): string | undefined {
  switch (name) {
    case 'workspaceFolder':
    case 'workspaceRoot':
      return workspacePath;
    case 'workspaceFolderBasename':
      return path.basename(workspacePath);
    case 'userHome':
      return os.homedir();
    case 'pathSeparator':
    case '/':
      return path.sep;
    default:
      return undefined;
  }
}

/**
 * A value with its folder variables and defaults filled in. A secret's placeholder is allowed only where a token can
 * go (`secrets`: env values and header values), at most one per value; it is returned as the token's spot.
 */
export function expandValue(
  value: string,
  ctx: VariableContext,
  secrets: boolean,
): { value: string; token: TokenSpot | null } {
  let token: TokenSpot | null = null;
  let out = '';
  let last = 0;
  for (const match of value.matchAll(VARIABLE)) {
    const [whole, name = ''] = match;
    out += value.slice(last, match.index);
    last = match.index + whole.length;
    const folder = folderVariable(name, ctx.workspacePath);
    const fallback = WITH_DEFAULT.exec(name);
    if (folder !== undefined) out += folder;
    else if (fallback) out += fallback[1];
    else if (SECRET.test(name)) {
      if (!secrets) {
        throw new VariableError(
          `${ctx.at}: ${whole} is a secret's placeholder; MAESTRO passes a server's token only in an env value or a header`,
        );
      }
      if (token) throw new VariableError(`${ctx.at}: one placeholder per value (${token.placeholder} and ${whole})`);
      token = { before: out, after: '', placeholder: whole };
      out = '';
    } else throw new VariableError(`${ctx.at}: unknown variable ${whole}`);
  }
  out += value.slice(last);
  if (token) return { value: '', token: { ...token, after: out } };
  return { value: out, token: null };
}
