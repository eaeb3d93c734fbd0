// The settings-change card: it names the file, says what is in force meanwhile, shows the diff, and its Accept /
// Reject go to main with the hash the card showed; main's answer (the changes left) replaces the list.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SettingsChangeView } from '../../../src-shared/contract';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore, StoreContext } from '../store/store';
import { SettingsChangeCard } from './SettingsChangeCard';

const change = (patch: Partial<SettingsChangeView> = {}): SettingsChangeView => ({
  workspacePath: '/ws',
  file: '.maestro/policy.json',
  kind: 'policy',
  hasAccepted: true,
  currentSha256: 'a'.repeat(64),
  diff: '--- a/.maestro/policy.json\n+++ b/.maestro/policy.json\n@@ -1 +1 @@\n-{}\n+{"run_command":{"allow":["*"]}}',
  ...patch,
});

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

const html = (view: SettingsChangeView, holdsTask = false) =>
  renderToStaticMarkup(
    <StoreContext.Provider value={createAppStore(fakeClient({}))}>
      <SettingsChangeCard change={view} holdsTask={holdsTask} />
    </StoreContext.Provider>,
  );

describe('SettingsChangeCard', () => {
  it('names the file, says the accepted version is in force, and shows the diff with Accept and Reject', () => {
    const out = html(change());
    expect(out).toContain('data-testid="settings-change"');
    expect(out).toContain('<code data-testid="settings-change-file">.maestro/policy.json</code>');
    expect(out).toContain('The accepted version is in force until you accept the change.');
    expect(out).toContain('+{&quot;run_command&quot;:{&quot;allow&quot;:[&quot;*&quot;]}}');
    expect(out).toContain('data-card-action="approve"');
    expect(out).toContain('Reject (restore the accepted version)');
  });

  it('for a file never accepted, says the defaults are in force and that rejecting removes it', () => {
    const out = html(change({ hasAccepted: false }));
    expect(out).toContain('the defaults are in force until you accept it');
    expect(out).toContain('Reject (remove the file)');
  });

  it('for a file never accepted that holds the task’s first job, says the task waits for the decision', () => {
    const out = html(change({ hasAccepted: false }), true);
    expect(out).toContain('the task waits until you accept or reject it');
    expect(out).not.toContain('the defaults are in force');
  });
});

describe('the settings-changes slice', () => {
  it('accepts with the hash the card showed, and keeps the changes main answers', async () => {
    const seen: unknown[] = [];
    const left = change({ file: '.maestro/mcp.json', kind: 'mcp' });
    const store = createAppStore(
      fakeClient({
        acceptSettingsChange: async (input) => {
          seen.push(input);
          return { changes: [left] };
        },
      }),
    );
    expect(await store.getState().decideSettingsChange(change(), 'accept')).toEqual({ ok: true });
    expect(seen).toEqual([{ workspacePath: '/ws', file: '.maestro/policy.json', currentSha256: 'a'.repeat(64) }]);
    expect(store.getState().settingsChanges).toEqual({ workspacePath: '/ws', changes: [left] });
  });

  it('a refused reject is reported and changes nothing known', async () => {
    const store = createAppStore(
      fakeClient({
        listSettingsChanges: async () => ({ changes: [change()] }),
        rejectSettingsChange: async () => {
          throw new ApiError('conflict', 'the file cannot be restored', [], 409);
        },
      }),
    );
    await store.getState().loadSettingsChanges('/ws');
    const outcome = await store.getState().decideSettingsChange(change(), 'reject');
    expect(outcome.ok).toBe(false);
    expect(store.getState().settingsChanges?.changes).toHaveLength(1);
  });
});
