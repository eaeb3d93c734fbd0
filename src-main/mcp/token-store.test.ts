import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { fileSecretBox } from '../llm/secret-box';
import { ConfigFileError } from '../workspace/json-file';
import { MCP_TOKENS_FILE, McpTokenError, McpTokenStore } from './token-store';

const storeIn = (dir: string, keyFile = path.join(dir, 'secret.key')) =>
  McpTokenStore.inDataDir(dir, fileSecretBox(keyFile));

describe('the MCP token store', () => {
  it('seals each token in the data dir (0600), never in clear, and opens it after a restart', () => {
    const dir = tempDir();
    const tokens = storeIn(dir);
    expect(tokens.state('/ws', 'gh')).toEqual({ hasToken: false, rejected: false });
    expect(tokens.open('/ws', 'gh')).toBeNull();
    tokens.save('/ws', 'gh', 'ghp_SECRET_VALUE');
    const file = path.join(dir, MCP_TOKENS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('ghp_SECRET_VALUE');
    expect(storeIn(dir).open('/ws', 'gh')).toBe('ghp_SECRET_VALUE');
    expect(storeIn(dir).open('/other', 'gh')).toBeNull();
    expect(tokens.savedCount).toBe(1);
  });

  it('a sealed token copied to another workspace or server does not open there', () => {
    const dir = tempDir();
    storeIn(dir).save('/ws', 'gh', 'ghp_one');
    const file = path.join(dir, MCP_TOKENS_FILE);
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    data.entries.push({ ...data.entries[0], server: 'other' });
    fs.writeFileSync(file, JSON.stringify(data));
    expect(() => storeIn(dir).open('/ws', 'other')).toThrow(McpTokenError);
    expect(() => storeIn(dir).open('/ws', 'other')).toThrow(/MCP server "other" cannot be used: .*save it again/);
    // With another secret.key nothing opens, and the message never holds the token.
    const foreign = storeIn(dir, path.join(tempDir(), 'secret.key'));
    expect(() => foreign.open('/ws', 'gh')).toThrow(/cannot be used/);
  });

  it('remembers a refusal until the server takes the credentials or a token is saved', () => {
    const dir = tempDir();
    const tokens = storeIn(dir);
    tokens.markRejected('/ws', 'gh');
    expect(storeIn(dir).state('/ws', 'gh')).toEqual({ hasToken: false, rejected: true });
    tokens.save('/ws', 'gh', 't1');
    expect(tokens.state('/ws', 'gh')).toEqual({ hasToken: true, rejected: false });
    tokens.markRejected('/ws', 'gh');
    expect(tokens.state('/ws', 'gh')).toEqual({ hasToken: true, rejected: true });
    expect(tokens.open('/ws', 'gh')).toBe('t1');
    tokens.markAccepted('/ws', 'gh');
    expect(storeIn(dir).state('/ws', 'gh')).toEqual({ hasToken: true, rejected: false });
  });

  it('a broken file is reported and never overwritten', () => {
    const dir = tempDir();
    const file = path.join(dir, MCP_TOKENS_FILE);
    fs.writeFileSync(file, '{"version": 2}');
    const tokens = storeIn(dir);
    expect(tokens.error?.message).toMatch(/mcp-tokens\.json is not a valid MCP tokens file: version/);
    expect(() => tokens.save('/ws', 'gh', 't')).toThrow(ConfigFileError);
    tokens.markRejected('/ws', 'gh');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version": 2}');
  });
});
