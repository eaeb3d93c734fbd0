// Settings' Tool Policy in the store: the spaces to choose from, a workspace's policy loaded and replaced by a save's
// answer, a refused save leaving the shown policy alone, and a slow answer for a workspace no longer chosen dropped;
// the "Ask before editing files" switch as the rules it writes.
import { describe, expect, it } from 'vitest';
import type { ToolPolicyView } from '../../../src-shared/tool-policy';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore } from './store';
import { asksBeforeEdits, withAskBeforeEdits } from './tool-policy-slice';

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

const view = (workspacePath: string, deny: string[] = []): ToolPolicyView => ({
  workspacePath,
  file: `${workspacePath}/.maestro/policy.json`,
  exists: deny.length > 0,
  policy: { tools: { deny, ask: [], allow: [] }, run_command: { allow: [], network: [] } },
  error: null,
  knownTools: ['read_file', 'write_file', 'run_command'],
});

const SPACE = {
  id: 'spc_1',
  name: 'site',
  folder: '/w/site',
  pinnedPieceId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  taskCount: 1,
  lastUsedAt: null,
};

describe('the tool policy slice', () => {
  it('lists the spaces, loads a workspace’s policy, and a save replaces it with main’s answer', async () => {
    const saved: unknown[] = [];
    const store = createAppStore(
      fakeClient({
        listSpaces: async () => ({ spaces: [SPACE] }),
        getToolPolicy: async ({ workspacePath }) => view(workspacePath),
        saveToolPolicy: async (input) => {
          saved.push(input);
          return view(input.workspacePath, ['write_file']);
        },
      }),
    );
    await store.getState().loadPolicySpaces();
    expect(store.getState().policySpaces).toEqual([SPACE]);
    await store.getState().loadToolPolicy('/w/site');
    expect(store.getState()).toMatchObject({ toolPolicyFor: '/w/site', toolPolicyLoad: 'ready' });
    expect(store.getState().toolPolicy?.exists).toBe(false);
    const policy = { tools: { deny: ['write_file'], ask: [], allow: [] }, run_command: { allow: [], network: [] } };
    expect(await store.getState().saveToolPolicy('/w/site', policy)).toBeNull();
    expect(saved).toEqual([{ workspacePath: '/w/site', policy }]);
    expect(store.getState().toolPolicy?.policy.tools.deny).toEqual(['write_file']);
  });

  it('a refused save answers the error with its field, and the shown policy stays', async () => {
    const refusal = new ApiError('invalid_input', 'invalid tool policy', [
      { path: ['policy', 'run_command', 'allow', 0], message: 'a rule is one line' },
    ]);
    const store = createAppStore(
      fakeClient({
        getToolPolicy: async ({ workspacePath }) => view(workspacePath, ['glob']),
        saveToolPolicy: async () => {
          throw refusal;
        },
      }),
    );
    await store.getState().loadToolPolicy('/w');
    const error = await store.getState().saveToolPolicy('/w', {
      tools: { deny: [], ask: [], allow: [] },
      run_command: { allow: ['a\nb'], network: [] },
    });
    expect(error?.issues).toEqual(refusal.issues);
    expect(store.getState().toolPolicy?.policy.tools.deny).toEqual(['glob']);
  });

  it('a late answer for a workspace no longer chosen is dropped; a load failure is shown', async () => {
    let release: (v: ToolPolicyView) => void = () => {};
    const store = createAppStore(
      fakeClient({
        getToolPolicy: ({ workspacePath }) =>
          workspacePath === '/slow'
            ? new Promise((resolve) => {
                release = resolve;
              })
            : Promise.reject(new ApiError('not_found', 'workspace /gone does not exist')),
      }),
    );
    const slow = store.getState().loadToolPolicy('/slow');
    await store.getState().loadToolPolicy('/gone');
    release(view('/slow'));
    await slow;
    expect(store.getState()).toMatchObject({
      toolPolicyFor: '/gone',
      toolPolicy: null,
      toolPolicyLoad: 'error',
      toolPolicyError: 'workspace /gone does not exist',
    });
  });
});

describe('Ask before editing files', () => {
  it('is exactly edit_file and write_file in tools.ask; switching it keeps the other ask rules in their order', () => {
    expect(asksBeforeEdits([])).toBe(false);
    expect(asksBeforeEdits(['edit_file'])).toBe(false);
    expect(asksBeforeEdits(['read_file', 'write_file', 'edit_file'])).toBe(true);
    expect(withAskBeforeEdits([], true)).toEqual(['edit_file', 'write_file']);
    expect(withAskBeforeEdits(['mcp__fs__*', 'edit_file'], true)).toEqual(['mcp__fs__*', 'edit_file', 'write_file']);
    expect(withAskBeforeEdits(['edit_file', 'mcp__fs__*', 'write_file'], false)).toEqual(['mcp__fs__*']);
  });
});
