// The settings-change card: it names the file, says what is in force meanwhile, shows the diff, and its Accept /
// Reject go to main with the hash the card showed; main's answer (the changes left) replaces the list.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SettingsChangeView } from '../../../src-shared/contract';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore, StoreContext } from '../store/store';
import { SettingsAcceptAll, SettingsChangeCard } from './SettingsChangeCard';

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

describe('many settings changes (issue 27 point 4)', () => {
  const many = Array.from({ length: 300 }, (_, i) =>
    change({ file: `.maestro/facets/personas/p-${i}.md`, kind: 'piece', hasAccepted: false }),
  );

  it('a folded card keeps its diff under a summary, and its own Accept and Reject', () => {
    const out = renderToStaticMarkup(
      <StoreContext.Provider value={createAppStore(fakeClient({}))}>
        <SettingsChangeCard change={change()} folded />
      </StoreContext.Provider>,
    );
    expect(out).toMatch(/<details data-testid="settings-change-fold"><summary>Show the change<\/summary><pre/);
    expect(out).toContain('data-testid="settings-accept"');
    expect(out).toContain('data-testid="settings-reject"');
    expect(html(change())).not.toContain('<details');
  });

  it('Accept all names how many files it accepts', () => {
    const out = renderToStaticMarkup(
      <StoreContext.Provider value={createAppStore(fakeClient({}))}>
        <SettingsAcceptAll changes={many} />
      </StoreContext.Provider>,
    );
    expect(out).toContain('Accept all (300)');
    expect(out).not.toContain('data-testid="settings-relisted"');
  });

  it('sends every file with the hash its card showed; files changed since come back as cards and are named', async () => {
    const seen: unknown[] = [];
    const now = change({ file: '.maestro/facets/personas/p-7.md', currentSha256: 'b'.repeat(64), hasAccepted: false });
    const store = createAppStore(
      fakeClient({
        acceptAllSettingsChanges: async (input) => {
          seen.push(input);
          return { changes: [now], accepted: [], notAccepted: [now.file] };
        },
        acceptSettingsChange: async () => ({ changes: [] }),
      }),
    );
    expect(await store.getState().acceptAllSettingsChanges(many)).toEqual({ ok: true });
    expect(seen).toEqual([
      { workspacePath: '/ws', files: many.map((c) => ({ file: c.file, currentSha256: 'a'.repeat(64) })) },
    ]);
    expect(store.getState().settingsChanges).toEqual({ workspacePath: '/ws', changes: [now] });
    expect(store.getState().settingsChangesRelisted).toEqual([now.file]);
    // The next decision is about a card as listed now: the note goes.
    expect(await store.getState().decideSettingsChange(now, 'accept')).toEqual({ ok: true });
    expect(store.getState().settingsChangesRelisted).toEqual([]);
  });

  it('a refused Accept all is reported and changes nothing known', async () => {
    const store = createAppStore(
      fakeClient({
        listSettingsChanges: async () => ({ changes: many }),
        acceptAllSettingsChanges: async () => {
          throw new ApiError('conflict', 'accepted-settings.json cannot be written', [], 409);
        },
      }),
    );
    await store.getState().loadSettingsChanges('/ws');
    expect((await store.getState().acceptAllSettingsChanges(many)).ok).toBe(false);
    expect(store.getState().settingsChanges?.changes).toHaveLength(300);
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
