// A person's edit of mcp.json (config-edit.ts) read-modify-writes the file as it is at the moment of writing: a hand
// edit that lands between the read and the write is read again and kept; and only the Settings operation reaches the
// edit, no tool or engine path.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { AcceptedSettings } from '../workspace/accepted-settings';
import { MCP_FILE } from './config';
import { editMcpFile, withServer } from './config-edit';

describe('editMcpFile', () => {
  it('a hand edit landing between reading and writing is kept (the change runs again on the new text)', () => {
    const workspace = tempDir('maestro-ws-');
    const accepted = new AcceptedSettings(tempDir());
    const file = path.join(workspace, MCP_FILE);
    let calls = 0;
    editMcpFile(accepted, workspace, (text) => {
      calls++;
      // The first time, someone saves the file by hand while the change is being made.
      if (calls === 1) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify({ mcpServers: { hand: { command: '/usr/bin/hand-mcp' } } }));
      }
      return withServer(text, 'mine', { type: 'http', url: 'https://x.test/mcp' }, workspace);
    });
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers)).toEqual(['hand', 'mine']);
    // The hand edit was never accepted: the accepted version holds only the person's server.
    expect(Object.keys(JSON.parse(accepted.accepted(workspace, MCP_FILE) ?? '{}').mcpServers)).toEqual(['mine']);
  });
});

describe('who can edit mcp.json this way', () => {
  it('only the Settings operation imports the edit: no tool, engine or worker file does', () => {
    const root = path.resolve(__dirname, '..', '..');
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (
          /\.tsx?$/.test(e.name) &&
          !/\.test\.tsx?$/.test(e.name) &&
          /config-edit['"]/.test(fs.readFileSync(p, 'utf8'))
        ) {
          importers.push(path.relative(root, p));
        }
      }
    };
    for (const dir of ['src-main', 'src-shared', 'src-preload']) walk(path.join(root, dir));
    expect(importers).toEqual(['src-main/app/mcp-server-operations.ts']);
  });
});
