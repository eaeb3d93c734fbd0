// P2.18 / §2 M: the approval card of a command on an SSH target says "on <target>" with its address, the folder there
// and that nothing sandboxes it, in English and Japanese; it offers no "for this task" grant (none would cover a
// command there: only the workspace policy allows one without asking). A local command's card is unchanged.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ToolRequest } from '../../../src-shared/entities';
import type { MaestroApi, MaestroClient } from '../api/client';
import type { Locale } from '../i18n/translate';
import { createAppStore, StoreContext } from '../store/store';
import { ToolRequestApproval } from './ToolRequestApproval';

const client: MaestroClient = { transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} };

function html(locale: Locale, request: ToolRequest): string {
  vi.stubGlobal('localStorage', { getItem: () => locale, setItem: () => {} });
  try {
    return renderToStaticMarkup(
      <StoreContext.Provider value={createAppStore(client)}>
        <ToolRequestApproval request={request} />
      </StoreContext.Provider>,
    );
  } finally {
    vi.unstubAllGlobals();
  }
}

const request = (display: ToolRequest['display']): ToolRequest => ({
  id: 'r1',
  taskId: 't1',
  jobId: 'j1',
  callId: 'c1',
  tool: 'run_command',
  summary: '$ systemctl status app',
  status: 'pending',
  scope: null,
  createdAt: '2026-12-03T09:00:00.000Z',
  decidedAt: null,
  denyReason: null,
  grantOptions: { target: { kind: 'call', value: null }, prefixes: [] },
  display,
});

const remote = request({
  kind: 'command',
  command: 'systemctl status app',
  cwd: '/srv/app',
  timeoutMs: 120_000,
  network: [],
  unsandboxed: null,
  target: { name: 'prod', address: 'deploy@prod.example:22' },
});

describe('P2.18 the card of a command on an SSH target', () => {
  it('says where it runs: on the target, its address and folder; not sandboxed; no grant for the task', () => {
    const en = html('en', remote);
    expect(en).toContain('data-target="prod"');
    expect(en).toContain('Runs on prod (deploy@prod.example:22) in /srv/app; stopped after 120 s.');
    expect(en).toContain('NOT sandboxed: it runs on prod with that account’s full access.');
    expect(en).not.toContain('data-testid="grant-choice"');
    expect(en).toContain('data-testid="approve-once"');
    const ja = html('ja', remote);
    expect(ja).toContain('prod（deploy@prod.example:22）上の /srv/app で実行し、120 秒で停止します。');
    expect(ja).toContain('サンドボックス外: prod 上で');
  });

  it('in the login folder when no cwd is given; a local command keeps its card and its grant choice', () => {
    const home = html('en', {
      ...remote,
      display: { ...(remote.display as object), cwd: '.' } as ToolRequest['display'],
    });
    expect(home).toContain('Runs on prod (deploy@prod.example:22) in the login folder;');
    const local = html(
      'en',
      request({ kind: 'command', command: 'npm test', cwd: '.', timeoutMs: 1000, network: [], unsandboxed: null }),
    );
    expect(local).toContain('Runs in the workspace folder; stopped after 1 s.');
    expect(local).not.toContain('data-target');
    expect(local).toContain('data-testid="grant-choice"');
  });
});
