// P2.18 Settings → Tool Policy → SSH targets: the workspace's targets with how each is reached (agent, a saved key,
// one that cannot be opened), in English and Japanese; choosing a key file sends the path (never a key) and shows
// main's answer; a refusal is shown on the row and changes nothing; "Use the SSH agent" sends null.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { SshTargetView } from '../../../src-shared/contract';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import type { Locale } from '../i18n/translate';
import { type AppStore, createAppStore, StoreContext } from '../store/store';
import { SshTargetKeys } from './SshTargetKeys';
import { fromDocument, toDocument } from './ToolPolicyEditor';

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

const target = (name: string, key: SshTargetView['key']): SshTargetView => ({
  name,
  address: `deploy@${name}.example:22`,
  hostKey: 'ssh-ed25519 SHA256:abc',
  key,
});

function html(locale: Locale, store: AppStore): string {
  vi.stubGlobal('localStorage', { getItem: () => locale, setItem: () => {} });
  try {
    const rendered = { ...store, getInitialState: () => ({ ...store.getState(), locale }) };
    return renderToStaticMarkup(
      <StoreContext.Provider value={rendered}>
        <SshTargetKeys workspacePath="/w" />
      </StoreContext.Provider>,
    );
  } finally {
    vi.unstubAllGlobals();
  }
}

describe('P2.18 SSH targets in Settings', () => {
  it('loads the targets, saves a key file by path, goes back to the agent, and keeps a refused choice out', async () => {
    const sent: unknown[] = [];
    const store = createAppStore(
      fakeClient({
        listSshTargets: async () => ({
          targets: [target('prod', 'agent'), target('stage', 'unreadable')],
          error: null,
        }),
        saveSshTargetKey: async (input) => {
          sent.push(input);
          if (input.keyFile === '/k.pub') {
            throw new ApiError(
              'invalid_input',
              'keyFile: /k.pub holds a public key',
              [{ path: ['keyFile'], message: '/k.pub holds a public key' }],
              400,
            );
          }
          return { target: target(input.target, input.keyFile === null ? 'agent' : 'saved') };
        },
      }),
    );
    store.setState({ toolPolicyFor: '/w' });
    await store.getState().loadSshTargets('/w');
    const en = html('en', store);
    expect(en).toContain('data-target="prod" data-key="agent"');
    expect(en).toContain('Reached with your SSH agent (SSH_AUTH_SOCK).');
    expect(en).toContain('The key you chose cannot be opened');
    expect(en).toContain('deploy@prod.example:22 · host key ssh-ed25519 SHA256:abc');
    expect(html('ja', store)).toContain('SSH エージェント（SSH_AUTH_SOCK）で接続します。');

    expect(await store.getState().saveSshTargetKey('/w', 'prod', '/home/me/.ssh/id_ed25519')).toBeNull();
    expect(store.getState().sshTargets?.map((t) => t.key)).toEqual(['saved', 'unreadable']);
    const refused = await store.getState().saveSshTargetKey('/w', 'prod', '/k.pub');
    expect(refused?.message).toMatch(/public key/);
    expect(store.getState().sshTargets?.map((t) => t.key)).toEqual(['saved', 'unreadable']);
    expect(await store.getState().saveSshTargetKey('/w', 'stage', null)).toBeNull();
    expect(store.getState().sshTargets?.map((t) => t.key)).toEqual(['saved', 'agent']);
    expect(sent).toEqual([
      { workspacePath: '/w', target: 'prod', keyFile: '/home/me/.ssh/id_ed25519' },
      { workspacePath: '/w', target: 'prod', keyFile: '/k.pub' },
      { workspacePath: '/w', target: 'stage', keyFile: null },
    ]);
  });

  it('a policy without targets says so; a broken policy shows its error', async () => {
    const store = createAppStore(
      fakeClient({
        listSshTargets: async () => ({ targets: [], error: '/w/.maestro/policy.json: ssh.targets.x.hostKey: …' }),
      }),
    );
    store.setState({ toolPolicyFor: '/w' });
    await store.getState().loadSshTargets('/w');
    const out = html('en', store);
    expect(out).toContain('The policy names no SSH targets.');
    expect(out).toContain('ssh.targets.x.hostKey');
  });

  it('the Tool Policy form saves the policy’s ssh section back as it was (it does not edit it)', () => {
    const ssh = { targets: { box: { host: 'h', user: 'me', hostKey: 'SHA256:x' } } };
    const draft = fromDocument({
      tools: { deny: [], ask: [], allow: [] },
      run_command: { allow: [], network: [] },
      ssh,
    });
    draft.deny = ['write_file'];
    expect(toDocument(draft)).toMatchObject({ tools: { deny: ['write_file'] }, ssh });
    expect(
      'ssh' in
        toDocument(fromDocument({ tools: { deny: [], ask: [], allow: [] }, run_command: { allow: [], network: [] } })),
    ).toBe(false);
  });
});
