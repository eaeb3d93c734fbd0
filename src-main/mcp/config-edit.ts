// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a secret's place in mcp.json is the `${NAME}` placeholder
// A server added to or removed from a workspace's `.maestro/mcp.json` as a person typed it in Settings: the entry the
// loader reads, put into the file's text as it is now (other entries and the file's shape kept), checked by the same
// loader a hand-written file goes through. A person's edit applies without review: the accepted version gets the same
// change, so a change still waiting for review (an agent's, or a hand edit) stays waiting, neither lost nor accepted.
import fs from 'node:fs';
import type { z } from 'zod';
import type { McpServerDraft } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { AcceptedSettings } from '../workspace/accepted-settings';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ConfigFileError } from '../workspace/json-file';
import { MCP_FILE, mcpFile, parseMcpConfig } from './config';

type Draft = z.output<typeof McpServerDraft>;

/** The mcp.json entry of a draft, and the one env value kept sealed as the server's token instead of in the file. */
export function draftEntry(draft: Draft): { entry: Record<string, unknown>; secret: string | null } {
  switch (draft.transport) {
    case 'http':
      return { entry: { type: 'http', url: draft.url }, secret: null };
    case 'stdio': {
      const env: Record<string, string> = {};
      let secret: string | null = null;
      for (const e of draft.env) {
        // The loader reads `${NAME}` in an env value as where the server's saved token goes.
        env[e.name] = e.secret ? `\${${e.name}}` : e.value;
        if (e.secret) secret = e.value;
      }
      return {
        entry: {
          type: 'stdio',
          command: draft.command,
          ...(draft.args.length > 0 ? { args: draft.args } : {}),
          ...(draft.env.length > 0 ? { env } : {}),
          ...(draft.readable.length > 0 ? { readable: draft.readable } : {}),
        },
        secret,
      };
    }
    default:
      return draft satisfies never;
  }
}

type Servers = Record<string, unknown>;

/** The loader refuses the entry a person typed: the field as the form names it (`args.0`, `env.API_KEY`), and why. */
export class McpEntryError extends Error {
  constructor(
    readonly field: string,
    readonly why: string,
  ) {
    super(`${field}: ${why}`);
    this.name = new.target.name;
  }
}

/** The file's JSON and the key its servers are under (`mcpServers`, or VS Code's `servers`); a fresh one for none. */
function parts(text: string | null, workspacePath: string): { json: Record<string, unknown>; servers: Servers } {
  if (text === null) return { json: { mcpServers: {} }, servers: {} };
  try {
    parseMcpConfig(text, mcpFile(workspacePath), workspacePath);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    throw new MaestroError('conflict', `${error.message}; fix the file (or reject its change) first`);
  }
  const json = JSON.parse(text) as Record<string, unknown>;
  return { json, servers: (json.servers ?? json.mcpServers) as Servers };
}

const keyOf = (json: Record<string, unknown>) => ('servers' in json ? 'servers' : 'mcpServers');
const render = (json: Record<string, unknown>) => `${JSON.stringify(json, null, 2)}\n`;

export const hasServer = (text: string | null, name: string, workspacePath: string): boolean =>
  Object.hasOwn(parts(text, workspacePath).servers, name);

/** The file's text with the entry added (after the others). Throws McpEntryError when the loader refuses it. */
export function withServer(text: string | null, name: string, entry: unknown, workspacePath: string): string {
  const { json, servers } = parts(text, workspacePath);
  const next = render({ ...json, [keyOf(json)]: { ...servers, [name]: entry } });
  try {
    parseMcpConfig(next, mcpFile(workspacePath), workspacePath);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    // The loader names `<key>.<name>.<field>: why`: the form's field is what follows the name.
    const named = /^[A-Za-z]+\.[^.:]+\.([^:]+): (.*)$/s.exec(error.why);
    throw new McpEntryError(named?.[1] ?? 'name', named?.[2] ?? error.why);
  }
  return next;
}

/** The file's text without the entry; unchanged when it has none. */
export function withoutServer(text: string | null, name: string, workspacePath: string): string | null {
  if (text === null) return null;
  const { json, servers } = parts(text, workspacePath);
  if (!Object.hasOwn(servers, name)) return text;
  const { [name]: _gone, ...rest } = servers;
  return render({ ...json, [keyOf(json)]: rest });
}

/** How many times a hand edit landing between reading and writing the file makes the change start again. */
const ATTEMPTS = 3;

/**
 * Applies `change` to the file as it is now and to the accepted version (the same text when they agree), records the
 * accepted one and writes the file. A file changed by hand meanwhile is read again, never overwritten with less.
 */
export function editMcpFile(
  accepted: AcceptedSettings,
  workspacePath: string,
  change: (text: string | null) => string | null,
): void {
  const file = mcpFile(workspacePath);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = readText(file);
    const before = accepted.accepted(workspacePath, MCP_FILE);
    const next = change(current);
    const nextAccepted = current === before ? next : change(before);
    record(accepted, workspacePath, nextAccepted);
    try {
      if (readText(file) !== current) {
        record(accepted, workspacePath, before);
        continue;
      }
      if (next === null) fs.rmSync(file, { force: true });
      else writeFileAtomic(file, next, modeOf(file));
      return;
    } catch (error) {
      record(accepted, workspacePath, before);
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new MaestroError('conflict', `${file} cannot be written (${code}); nothing was changed`);
    }
  }
  throw new MaestroError('conflict', `${file} kept changing while it was being written; try again`);
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new MaestroError('conflict', `${file} cannot be read (${code ?? 'error'}); nothing was changed`);
  }
}

function record(accepted: AcceptedSettings, workspacePath: string, text: string | null): void {
  try {
    accepted.record(workspacePath, MCP_FILE, text);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
}

/** The file keeps its permissions (a person may have made it private); a new one is the usual 0644. */
const modeOf = (file: string) => (fs.statSync(file, { throwIfNoEntry: false })?.mode ?? 0o644) & 0o777;
