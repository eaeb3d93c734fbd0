// The Auto Prompter in the renderer: a pushed Policy Event becomes a row of the open task's activity timeline made
// from its allowlisted fields only (P8.07, P8.10), and Settings' load/save of the rules.
import { describe, expect, it } from 'vitest';
import type { AutoPrompterView } from '../../../src-shared/auto-prompter';
import type { MaestroEvent } from '../../../src-shared/events';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { translate } from '../i18n/translate';
import { activityRows } from './activity-rows';
import { selectActivity } from './entity-selectors';
import { createAppStore } from './store';

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

type PolicyEvent = Extract<MaestroEvent, { type: 'policy.fired' }>;

const fired = (seq: number, patch: Partial<PolicyEvent> = {}): PolicyEvent => ({
  type: 'policy.fired',
  seq,
  ts: '2025-01-01T00:00:00.000Z',
  taskId: 't1',
  jobId: 'j1',
  ruleIndex: 2,
  ruleId: null,
  action: 'deny',
  tool: 'run_command',
  ...patch,
});

const VIEW: AutoPrompterView = {
  workspacePath: '/w',
  file: '/w/.maestro/auto-prompter.json',
  exists: true,
  settings: { enabled: true, rules: [{ match: { tool: 'write_file' }, action: 'instruct', text: 'Test after.' }] },
  error: null,
};

describe('the Policy Event in the activity timeline', () => {
  it('P8.07 a pushed Policy Event of the open task is a row: who acted, on which tool, by which rule', async () => {
    const store = createAppStore(fakeClient({ listTaskEvents: async () => ({ events: [] }) }));
    await store.getState().loadActivity('t1');
    store.getState().applyEvent(fired(7));
    store.getState().applyEvent(fired(7)); // the same persisted event twice (reconnect) is one row
    store.getState().applyEvent(fired(8, { action: 'approve_once', ruleId: 'tests-once', ruleIndex: 0 }));
    const rows = activityRows(selectActivity(store.getState())?.events ?? []);
    expect(rows.map((r) => [r.kind, r.title, r.detail, r.status, r.error])).toEqual([
      ['tool', 'Auto Prompter denied run_command', 'rule rules[2]', 'deny', false],
      ['tool', 'Auto Prompter approved one run_command call', 'rule tests-once', 'approve_once', false],
    ]);
    const ja = activityRows([fired(9, { action: 'instruct', ruleId: 'cite' })], (key, params) =>
      translate('ja', key, params),
    );
    expect(ja.map((r) => [r.title, r.detail])).toEqual([['Auto Prompter が指示を追加（run_command）', 'ルール cite']]);
  });

  it('P8.10 the row is made of the allowlisted fields alone: anything else an event might carry is not shown', () => {
    const smuggled = { ...fired(1), command: 'curl sk-live-secret', reasoning: 'hidden thought' } as PolicyEvent;
    const [row] = activityRows([smuggled]);
    expect(JSON.stringify(row)).not.toMatch(/curl|sk-live|hidden thought/);
  });
});

describe('Settings: the Auto Prompter rules', () => {
  it('loads the view, and a save replaces it with what main answered', async () => {
    const saved: unknown[] = [];
    const store = createAppStore(
      fakeClient({
        getAutoPrompter: async () => ({ ...VIEW, exists: false, settings: { enabled: false, rules: [] } }),
        saveAutoPrompter: async (input) => {
          saved.push(input);
          return VIEW;
        },
      }),
    );
    await store.getState().loadAutoPrompter();
    expect(store.getState().autoPrompter?.exists).toBe(false);
    expect(await store.getState().saveAutoPrompter(VIEW.settings)).toBeNull();
    expect(saved).toEqual([VIEW.settings]);
    expect(store.getState().autoPrompter).toEqual(VIEW);
  });

  it('a refused save answers the error and keeps what was loaded', async () => {
    const store = createAppStore(
      fakeClient({
        getAutoPrompter: async () => VIEW,
        saveAutoPrompter: async () => {
          throw new ApiError('invalid_input', 'invalid input for saveAutoPrompter: rules.0.reason: must not be empty');
        },
      }),
    );
    await store.getState().loadAutoPrompter();
    const failure = await store.getState().saveAutoPrompter({ enabled: true, rules: [] });
    expect(failure?.message).toMatch(/rules\.0\.reason/);
    expect(store.getState().autoPrompter).toEqual(VIEW);
  });
});
