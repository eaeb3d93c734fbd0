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

  it('a sign-in’s client and tokens are sealed apart and bound to what they are; a pasted token and a sign-in replace each other', () => {
    const dir = tempDir();
    const tokens = storeIn(dir);
    tokens.saveOAuthClient('/ws', 'gh', { client_id: 'cid-1', redirect_uris: ['http://127.0.0.1:5/callback'] });
    expect(tokens.state('/ws', 'gh')).toEqual({ hasToken: false, rejected: false });
    tokens.saveOAuthTokens(
      '/ws',
      'gh',
      { access_token: 'AT_SECRET', token_type: 'bearer', refresh_token: 'RT_SECRET' },
      true,
    );
    expect(tokens.savedCount).toBe(1);
    // A refresh is not a person's save: nothing a parked job waits for changed.
    tokens.saveOAuthTokens('/ws', 'gh', { access_token: 'AT_2', token_type: 'bearer', refresh_token: 'RT_2' }, false);
    expect(tokens.savedCount).toBe(1);
    const text = fs.readFileSync(path.join(dir, MCP_TOKENS_FILE), 'utf8');
    for (const secret of ['AT_SECRET', 'RT_SECRET', 'AT_2', 'RT_2', 'cid-1']) expect(text).not.toContain(secret);
    const again = storeIn(dir);
    expect(again.state('/ws', 'gh')).toEqual({ hasToken: true, rejected: false, signedIn: true });
    expect(again.oauthTokens('/ws', 'gh')).toMatchObject({ access_token: 'AT_2', refresh_token: 'RT_2' });
    expect(again.oauthClient('/ws', 'gh')).toMatchObject({ client_id: 'cid-1' });
    // The sealed tokens moved into the client's place do not open: each is bound to what it is.
    const data = JSON.parse(text);
    data.entries[0].oauth.client = data.entries[0].oauth.tokens;
    fs.writeFileSync(path.join(dir, MCP_TOKENS_FILE), JSON.stringify(data));
    expect(() => storeIn(dir).oauthClient('/ws', 'gh')).toThrow(McpTokenError);

    const other = storeIn(tempDir());
    other.saveOAuthClient('/ws', 'gh', { client_id: 'cid' });
    other.saveOAuthTokens('/ws', 'gh', { access_token: 'AT', token_type: 'bearer', refresh_token: 'RT' }, true);
    // Registered again (another port): the tokens in force stay until the new sign-in ends.
    other.saveOAuthClient('/ws', 'gh', { client_id: 'cid-new' });
    expect(other.oauthTokens('/ws', 'gh')).toMatchObject({ access_token: 'AT' });
    // A pasted token ends the sign-in's tokens and keeps the client; a sign-in ends the pasted token.
    other.save('/ws', 'gh', 'pasted');
    expect(other.state('/ws', 'gh')).toEqual({ hasToken: true, rejected: false });
    expect(other.oauthTokens('/ws', 'gh')).toBeUndefined();
    expect(other.oauthClient('/ws', 'gh')).toMatchObject({ client_id: 'cid-new' });
    other.saveOAuthTokens('/ws', 'gh', { access_token: 'AT3', token_type: 'bearer' }, true);
    expect(other.open('/ws', 'gh')).toBeNull();
    // Refused (revoked): the tokens go, the client stays; `all`: the client too.
    other.dropOAuth('/ws', 'gh', 'tokens');
    expect(other.state('/ws', 'gh')).toEqual({ hasToken: false, rejected: false });
    expect(other.oauthClient('/ws', 'gh')).toMatchObject({ client_id: 'cid-new' });
    other.dropOAuth('/ws', 'gh', 'all');
    expect(other.oauthClient('/ws', 'gh')).toBeUndefined();
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
