// MCP authorization against the MCP SDK's own OAuth server parts (test-support/mcp-oauth-server.ts): a person's
// sign-in from the server's 401 (discovery, dynamic registration, authorization code with PKCE to this host's loopback
// listener), tokens sealed in the data dir, a job parked on the server going on once signed in (P2.14, P2.16), a token
// refreshed without the person, a grant revoked mid-job parking the job and the refused call made again after the
// sign-in — the model never sees the refusal — and the sign-in's failures in the person's words.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import { writeMcpConfig } from '../../test-support/mcp-fixtures';
import { startMcpHttpServer } from '../../test-support/mcp-http-server';
import { type OAuthMcpServer, startOAuthMcpServer } from '../../test-support/mcp-oauth-server';
import type { ScriptEntry } from '../../test-support/scripted-llm-server';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { MCP_TOKENS_FILE } from './token-store';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function oauthServer(options: { authServer?: string } = {}): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer(options);
  closers.push(() => server.close());
  return server;
}

type ChatMessage = { role: string; content?: string | null };
const toolResults = (h: Harness, i: number) =>
  ((h.server.requests[i]?.body?.messages ?? []) as ChatMessage[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

/** The person signs in from Settings, where the workspace's mcp.json is the accepted one. */
function startSignIn(h: Harness, server = 'remote') {
  acceptWorkspaceSettings(h.maestro, h.workspace);
  return h.maestro.invoke('startMcpSignIn', { workspacePath: h.workspace, server });
}
const servers = (h: Harness) => h.maestro.invoke('listMcpServers', { workspacePath: h.workspace }).servers;

/** The person's browser: opens the authorization address and follows the redirects back to the loopback listener. */
async function browse(address: string): Promise<{ status: number; text: string; url: string }> {
  const res = await fetch(address, { redirect: 'follow' });
  return { status: res.status, text: await res.text(), url: res.url };
}

async function signIn(h: Harness): Promise<void> {
  const { authorizationUrl } = await startSignIn(h);
  if (!authorizationUrl) throw new Error('expected an address to open');
  const page = await browse(authorizationUrl);
  expect(page).toMatchObject({ status: 200, text: expect.stringContaining('Signed in to remote') });
}

/** A harness whose workspace has the OAuth server as its MCP server `remote`, with the model's script for it. */
async function harnessWith(script: (remote: OAuthMcpServer) => ScriptEntry[] = () => [], entry: object = {}) {
  const remote = await oauthServer();
  const workspace = tempDir('maestro-ws-');
  writeMcpConfig(workspace, { remote: { url: remote.url, ...entry } });
  return { remote, h: await engineHarness(script(remote), { workspace }) };
}

/** Two calls of the server's echo with `between` happening to the tokens between them, then done. */
const echoTwice = (between: () => void): ScriptEntry[] => [
  call('mcp__remote__echo', { text: 'one' }),
  () => {
    between();
    return call('mcp__remote__echo', { text: 'two' });
  },
  complete('Echoed.'),
];

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('MCP sign-in (OAuth) against the SDK’s authorization and resource servers', () => {
  it('P2.14 P2.16 a job parks on the server’s 401; the person signs in in the browser; the tokens are sealed and the job goes on with them', async () => {
    const { remote, h } = await harnessWith(() => [call('mcp__remote__whoami', {}), complete('Known.')]);
    const { jobId } = h.createTask('Ask the remote who I am');

    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    expect(h.server.requests).toHaveLength(0);
    expect(servers(h)).toMatchObject([{ name: 'remote', signedIn: false, signingIn: false }]);

    const started = await startSignIn(h);
    const address = new URL(started.authorizationUrl ?? '');
    // The SDK's flow: the issuer's authorize endpoint, PKCE S256, this host's loopback redirect, the resource indicator.
    expect(address.origin).toBe(new URL(remote.issuer).origin);
    expect(address.searchParams.get('code_challenge_method')).toBe('S256');
    expect(address.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(address.searchParams.get('resource')).toBe(remote.url);
    expect(started.server).toMatchObject({ signingIn: true, signedIn: false });
    // Not signed in yet: the job still waits.
    expect(h.maestro.store.jobs.get(jobId)).toMatchObject({ status: 'waiting_human' });

    const page = await browse(address.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in to remote');
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);

    expect(done).toMatchObject({ status: 'succeeded', result: 'Known.' });
    expect(remote.provider.grants).toEqual(['authorization_code']);
    const token = remote.provider.accessTokens[0] ?? '';
    expect(remote.authorizations.filter((a) => a !== undefined).every((a) => a === `Bearer ${token}`)).toBe(true);
    // The server echoed the token back; the model got it redacted.
    expect(toolResults(h, 1)).toEqual(['credential: Bearer [token]']);
    expect(servers(h)).toMatchObject([{ name: 'remote', signedIn: true, signingIn: false, token: 'saved' }]);
    // Sealed: neither token nor the refresh token is in the data dir in clear, nor in the DB or the events.
    const file = fs.readFileSync(path.join(h.dataDir, MCP_TOKENS_FILE), 'utf8');
    for (const secret of [token, remote.provider.refreshTokens[0] ?? '']) {
      expect(file).not.toContain(secret);
      expect(JSON.stringify(h.events)).not.toContain(secret);
      expect(JSON.stringify(h.server.requests)).not.toContain(secret);
    }
  });

  it('P2.15 an access token that is about to expire is refreshed before the job uses it, and one refused mid-job is refreshed by the SDK: the person is not asked', async () => {
    // The access token stops working between two calls; the refresh token still does.
    const { remote, h } = await harnessWith((r) => echoTwice(() => r.provider.revoke('access')));
    // Tokens of 30 s: under the minute a job wants left, so the job refreshes before it starts.
    remote.provider.lifetimeS = 30;
    await signIn(h);
    remote.provider.lifetimeS = 3600;

    const { jobId } = h.createTask('Echo twice');
    const done = await h.waitFor(jobId, ['succeeded', 'failed', 'waiting_human']);

    expect(done).toMatchObject({ status: 'succeeded', result: 'Echoed.' });
    expect(remote.provider.grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
    expect(toolResults(h, 2)).toEqual(['echo: one', 'echo: two']);
    const last = remote.provider.accessTokens.at(-1);
    expect(remote.authorizations.at(-1)).toBe(`Bearer ${last}`);
    expect(h.maestro.attention.list()).toEqual([]);
  });

  it('P2.15 calls made at once that all meet an expired token refresh it once between them: the refresh token the server rotated is not taken for a revoked one', async () => {
    const both = {
      toolCalls: [
        { name: 'mcp__remote__echo', arguments: { text: 'a' } },
        { name: 'mcp__remote__echo', arguments: { text: 'b' } },
      ],
    };
    const { remote, h } = await harnessWith((r) => [
      call('mcp__remote__echo', { text: 'one' }),
      () => {
        r.provider.revoke('access');
        return both;
      },
      complete('Echoed.'),
    ]);
    await signIn(h);

    const { jobId } = h.createTask('Echo, then twice at once');
    const done = await h.waitFor(jobId, ['succeeded', 'failed', 'waiting_human']);

    expect(done).toMatchObject({ status: 'succeeded', result: 'Echoed.' });
    expect(toolResults(h, 2)).toEqual(['echo: one', 'echo: a', 'echo: b']);
    // One refresh took; a second may have been refused for the rotated token and found the new one.
    expect(remote.provider.grants.filter((g) => g === 'refresh_token').length).toBeGreaterThanOrEqual(1);
    expect(servers(h)).toMatchObject([{ signedIn: true }]);
  });

  it('P2.14 P2.16 a grant revoked mid-job parks the job (mcp_auth_required); after the person signs in again the refused call is made again and the model never sees the refusal', async () => {
    const { remote, h } = await harnessWith((r) => echoTwice(() => r.provider.revoke('all')));
    await signIn(h);
    const { taskId, jobId } = h.createTask('Echo twice');

    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    expect(h.maestro.attention.list()).toMatchObject([
      { taskId, reason: 'mcp_auth_required', detail: expect.stringContaining('sign in again') },
    ]);
    expect(servers(h)).toMatchObject([{ name: 'remote', signedIn: false }]);
    const callsBefore = remote.authorizations.length;

    await signIn(h);
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);

    expect(done).toMatchObject({ status: 'succeeded', result: 'Echoed.' });
    // Three model requests: the refused call was made again, not offered to the model as a result.
    expect(h.server.requests).toHaveLength(3);
    expect(toolResults(h, 2)).toEqual(['echo: one', 'echo: two']);
    const seen = JSON.stringify(h.server.requests.map((r) => r.body?.messages));
    expect(seen).not.toMatch(/invalid_token|401|revoked|unauthori[sz]ed/i);
    expect(remote.authorizations.length).toBeGreaterThan(callsBefore);
    expect(remote.authorizations.at(-1)).toBe(`Bearer ${remote.provider.accessTokens.at(-1)}`);
  });

  it('P2.14 a pasted token refused mid-job with 403 insufficient_scope parks the job instead of failing the call', async () => {
    const { remote, h } = await harnessWith((r) => echoTwice(() => r.requireScopes(['admin'])), {
      auth: { required: true },
    });
    // A token got elsewhere and pasted (the static way), issued by the same authorization server.
    await signIn(h);
    const pasted = remote.provider.accessTokens[0] ?? '';
    h.maestro.invoke('saveMcpToken', { workspacePath: h.workspace, server: 'remote', token: pasted });
    expect(servers(h)).toMatchObject([{ signedIn: false, token: 'saved' }]);

    const { jobId } = h.createTask('Echo twice');
    const parked = await h.waitFor(jobId, SETTLED);

    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    expect(h.maestro.attention.list()).toMatchObject([{ detail: expect.stringContaining('HTTP 403') }]);
    expect(h.server.requests).toHaveLength(2);
    expect(JSON.stringify(h.server.requests.map((r) => r.body?.messages))).not.toContain('insufficient_scope');
  });

  it('P2.14 a refresh that gets no answer (the authorization server is gone) parks the job with that reason and keeps the sign-in; no browser opens', async () => {
    const { remote, h } = await harnessWith(() => [call('mcp__remote__echo', { text: 'one' }), complete('Echoed.')]);
    remote.provider.lifetimeS = 1;
    await signIn(h);
    await remote.closeAuthServer();

    const first = h.createTask('Echo once');
    const parked = await h.waitFor(first.jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    expect(h.maestro.attention.list()).toMatchObject([
      { detail: expect.stringContaining('could not renew its sign-in: its authorization server did not answer') },
    ]);
    expect(h.server.requests).toHaveLength(0);
    // Nothing was thrown away: the sign-in is still there for when the authorization server is back.
    expect(servers(h)).toMatchObject([{ signedIn: true, signingIn: false }]);
    expect(remote.provider.grants).toEqual(['authorization_code']);
  });

  it('a callback that is not this sign-in’s answer is refused and the sign-in still waits; a refused consent ends it with the reason, and no window opens by itself', async () => {
    const { remote, h } = await harnessWith();
    const { authorizationUrl } = await startSignIn(h);
    const address = new URL(authorizationUrl ?? '');
    const callback = new URL(address.searchParams.get('redirect_uri') ?? '');

    const forged = await browse(`${callback.href}?code=forged&state=not-the-one`);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('does not answer the sign-in');
    expect(servers(h)).toMatchObject([{ signingIn: true, signedIn: false }]);
    expect(remote.provider.grants).toEqual([]);

    // The person refuses at the authorization server: it sends the error back with the state.
    const state = address.searchParams.get('state') ?? '';
    const refused = await browse(`${callback.href}?error=access_denied&error_description=no+thanks&state=${state}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('access_denied');
    expect(servers(h)).toMatchObject([
      { signingIn: false, signedIn: false, lastError: expect.stringContaining('access_denied: no thanks') },
    ]);
    // The listener is gone with the sign-in.
    await expect(fetch(callback.href)).rejects.toThrow();

    // Completing by address: nothing waits now.
    await expect(
      h.maestro.invoke('completeMcpSignIn', { workspacePath: h.workspace, server: 'remote', address: callback.href }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('no sign-in') });
  });

  it('a host the browser cannot reach finishes the sign-in with the address the browser ended on', async () => {
    const { remote, h } = await harnessWith();
    const { authorizationUrl } = await startSignIn(h);
    // The browser is elsewhere: it follows the authorization server's redirect but cannot load the loopback page.
    const res = await fetch(authorizationUrl ?? '', { redirect: 'manual' });
    const ended = res.headers.get('location') ?? '';
    expect(ended).toContain('/callback?code=');

    await expect(
      h.maestro.invoke('completeMcpSignIn', { workspacePath: h.workspace, server: 'remote', address: 'not a url' }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('not a URL') });
    const done = await h.maestro.invoke('completeMcpSignIn', {
      workspacePath: h.workspace,
      server: 'remote',
      address: ended,
    });

    expect(done.server).toMatchObject({ signedIn: true, signingIn: false, token: 'saved' });
    expect(remote.provider.grants).toEqual(['authorization_code']);
  });

  it('an authorization server that cannot be reached, and a server that offers no OAuth, are said so at the start; nothing is saved', async () => {
    const gone = await oauthServer({ authServer: 'http://127.0.0.1:9/' });
    const workspace = tempDir('maestro-ws-');
    const plain = await startMcpHttpServer({ token: 'static' });
    closers.push(() => plain.close());
    writeMcpConfig(workspace, { remote: { url: gone.url }, stdio: { command: 'true' }, other: { url: plain.url } });
    const h = await engineHarness([], { workspace });

    await expect(startSignIn(h)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('its authorization server http://127.0.0.1:9/ cannot be reached'),
    });
    await expect(startSignIn(h, 'other')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('does not offer an OAuth sign-in'),
    });
    await expect(startSignIn(h, 'stdio')).rejects.toMatchObject({ code: 'invalid_input' });
    expect(servers(h).find((s) => s.name === 'remote')).toMatchObject({ signingIn: false, signedIn: false });
    expect(fs.existsSync(path.join(h.dataDir, MCP_TOKENS_FILE))).toBe(false);
    // A job is never told to open anything: it parks with the reason, once.
    const { jobId } = h.createTask('Use it');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    await until(() => h.maestro.attention.list().length === 1, 'the notice');
  });
});
