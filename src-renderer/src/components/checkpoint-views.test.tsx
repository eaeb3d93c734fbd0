// What the checkpoint views render, read as markup: the files a checkpoint recorded (a count, folded), the Send
// menu's button and when its rewinds are refused, what each confirmation says, fork links both ways, the note when
// checkpoints are off, the job's commit, the notice after a rewind (its Undo only when the state before was kept),
// and Settings' numbers. Paths and titles come from the model: hidden characters in them show, never act.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Checkpoint, CheckpointSettings } from '../../../src-shared/checkpoints';
import type { Task } from '../../../src-shared/entities';
import type { MaestroApi, MaestroClient } from '../api/client';
import { english } from '../i18n';
import { indexCheckpoints } from '../store/checkpoint-index';
import type { Restore } from '../store/checkpoints-slice';
import { NO_ENTITIES } from '../store/entities';
import { type AppState, createAppStore, StoreContext } from '../store/store';
import { commentFixture, jobFixture, taskFixture } from '../test-fixtures';
import { ChatMessage } from './ChatMessage';
import { rewindWords } from './CheckpointDialogs';
import { CheckpointFiles } from './CheckpointFiles';
import { formatBytes, readCheckpointFields } from './CheckpointSettingsSection';
import { CheckpointsOff } from './CheckpointsOff';
import { RestoreNotice } from './RestoreNotice';
import { rewindRefusal, SendMenu } from './SendMenu';
import { TaskLineage } from './TaskLineage';

const fakeClient = (): MaestroClient => ({ transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} });

const checkpoint = (patch: Partial<Checkpoint> = {}): Checkpoint => ({
  id: 'cp1',
  taskId: 't',
  jobId: 'j1',
  send: 1,
  invokeSeq: 1,
  kind: 'send',
  createdAt: '2026-01-01T00:00:00.000Z',
  files: [],
  skipped: [],
  commit: null,
  callId: null,
  changedBy: 'call_1',
  ...patch,
});

function render(node: React.ReactNode, state: Partial<AppState> = {}): string {
  const store = createAppStore(fakeClient());
  store.setState({ selectedTaskId: 't', ...state });
  // A server render reads the store's initial state: here, the state set up above.
  const rendered = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(<StoreContext.Provider value={rendered}>{node}</StoreContext.Provider>);
}

const loaded = (checkpoints: Checkpoint[], on = true, note: string | null = null): Partial<AppState> => ({
  checkpoints: {
    taskId: 't',
    list: { checkpoints, rewinds: [], state: { on, store: on ? 'git' : null, note } },
    index: indexCheckpoints(checkpoints, []),
  },
});

describe('CheckpointFiles', () => {
  it('shows the count folded — by the call, or outside the agent — and nothing for a checkpoint that recorded none', () => {
    const two = checkpoint({
      files: [
        { path: 'a.ts', change: 'modified' },
        { path: 'b.ts', change: 'renamed', from: 'old.ts' },
      ],
    });
    const out = render(<CheckpointFiles checkpoint={two} />);
    expect(out).toContain('Changed 2 files');
    expect(out).toContain('aria-expanded="false"');
    expect(out).not.toContain('a.ts');
    expect(render(<CheckpointFiles checkpoint={checkpoint()} />)).toBe('');
    const outside = checkpoint({ changedBy: null, files: [{ path: 'x', change: 'added' }] });
    expect(render(<CheckpointFiles checkpoint={outside} />)).toContain(
      '1 file changed outside the agent since the previous checkpoint',
    );
  });
});

describe('the Send menu', () => {
  it('refuses rewinds while a job of the task is active or the Send has no checkpoint, never otherwise', () => {
    const running = jobFixture({ id: 'j2', taskId: 't', status: 'waiting_human' });
    const done = jobFixture({ id: 'j1', taskId: 't', status: 'succeeded' });
    expect(rewindRefusal([done, running], 'cp')).toBe('active');
    expect(rewindRefusal([done], null)).toBe('noCheckpoint');
    expect(rewindRefusal([done], 'cp')).toBeNull();
  });

  it('is a menu button named after its Send, closed until opened', () => {
    const invoke = { seq: 4, kind: 'UserSend' as const, jobId: 'j1', ts: '', label: 'Send #2', send: 2 };
    const out = render(<SendMenu invoke={invoke} send={2} />, loaded([checkpoint({ invokeSeq: 4 })]));
    expect(out).toContain('aria-haspopup="menu"');
    expect(out).toContain('aria-expanded="false"');
    expect(out).toContain('aria-label="Rewind or fork at Send #2"');
    expect(out).not.toContain('role="menu"');
  });

  it('says what each rewind does: files restorable and undoable, the conversation folded and never sent again', () => {
    const said = (mode: Parameters<typeof rewindWords>[0]) =>
      rewindWords(mode)
        .map((key) => english(key, { send: 'Send #2' }))
        .join(' ');
    expect(said('files')).toContain('files created since are removed and deleted ones come back');
    expect(said('files')).toContain('checkpointed first, so this rewind can itself be undone');
    expect(said('files')).toContain('The conversation is not changed.');
    expect(said('conversation')).toContain('Send #2 and every later Send are folded');
    expect(said('conversation')).toContain('never sent to the model again');
    expect(said('conversation')).toContain('Files in the workspace folder are not touched.');
    expect(said('both')).toContain('can itself be undone');
    expect(said('both')).toContain('never sent to the model again');
  });
});

describe('TaskLineage', () => {
  const origin = taskFixture({ id: 'orig', title: 'Original\u202Etxt.exe' });
  const fork = taskFixture({ id: 'fork', title: 'Try two', forkedFrom: { taskId: 'orig', send: 2 } });
  const tasks: Task[] = [origin, fork];

  it('links a fork to the task and Send it came from, hidden characters of the title shown', () => {
    const out = render(<TaskLineage task={fork} />, { entities: { ...NO_ENTITIES, tasks } });
    expect(out).toContain('data-testid="task-forked-from-link"');
    expect(out).toContain('at Send #2');
    expect(out).not.toContain('\u202E');
    expect(out).toContain('U+202E');
  });

  it("lists a task's forks, and nothing for a task with neither", () => {
    const out = render(<TaskLineage task={origin} />, { entities: { ...NO_ENTITIES, tasks } });
    expect(out).toContain('Forks of this task:');
    expect(out).toContain('Try two (at Send #2)');
    expect(render(<TaskLineage task={taskFixture({ id: 'lone' })} />, { entities: { ...NO_ENTITIES, tasks } })).toBe(
      '',
    );
  });
});

describe('the task notes', () => {
  it('says once why checkpoints are off, and nothing while they are on', () => {
    expect(render(<CheckpointsOff taskId="t" />, loaded([], false, 'git is not installed'))).toContain(
      'Checkpoints are off for this task: git is not installed',
    );
    expect(render(<CheckpointsOff taskId="t" />, loaded([]))).toBe('');
  });

  it('leaves the off note to the host’s comment while that is in the chat', () => {
    const said = commentFixture('n', 1, {
      author: 'system',
      kind: 'comment',
      notice: { code: 'checkpoints_off', reason: 'no_git' },
    });
    const chat = { taskId: 't', task: null, comments: [said], steps: [], olderCount: 0 };
    const state = { ...loaded([], false, 'git is not installed'), entities: { ...NO_ENTITIES, chat } };
    expect(render(<CheckpointsOff taskId="t" />, state)).toBe('');
  });

  it("shows the job's workspace commit on its result only", () => {
    const state = loaded([checkpoint({ jobId: 'j1', commit: 'abc1234' })]);
    const result = commentFixture('r', 1, { author: 'agent', kind: 'result', jobId: 'j1' });
    expect(render(<ChatMessage comment={result} />, state)).toContain('Committed abc1234');
    const other = commentFixture('r2', 1, { author: 'agent', kind: 'result', jobId: 'j2' });
    expect(render(<ChatMessage comment={other} />, state)).not.toContain('Committed');
    // The host's own comment on the commit is loaded: it says it alone.
    const note = commentFixture('n', 2, {
      author: 'system',
      kind: 'comment',
      jobId: 'j1',
      notice: { code: 'workspace_commit', hash: 'abc1234', files: 1, skipped: null },
    });
    const chat = { taskId: 't', task: null, comments: [result, note], steps: [], olderCount: 0 };
    const withNote = { ...state, entities: { ...NO_ENTITIES, chat } };
    expect(render(<ChatMessage comment={result} />, withNote)).not.toContain('Committed');
    const question = commentFixture('q', 1, { author: 'agent', kind: 'question', jobId: 'j1' });
    expect(render(<ChatMessage comment={question} />, state)).not.toContain('Committed');
  });
});

describe('RestoreNotice', () => {
  const restore = (patch: Partial<Restore>): Restore => ({
    taskId: 't',
    action: 'rewind',
    mode: 'both',
    send: 2,
    path: null,
    restored: ['a.ts'],
    removed: ['new\u202E.ts'],
    edited: ['a.ts'],
    undoCheckpointId: 'cp-before',
    ...patch,
  });

  it('lists what was written back and removed, with Undo while the state before was kept', () => {
    const out = render(<RestoreNotice taskId="t" />, { restore: restore({}) });
    expect(out).toContain('Rewound to the start of Send #2.');
    expect(out).toContain('no longer sent to the model');
    expect(out).toContain('Written back: a.ts');
    expect(out).toContain('Removed: new');
    expect(out).toContain('Your own edits overwritten (Undo brings them back): a.ts');
    expect(out).not.toContain('\u202E');
    expect(out).toContain('Undo rewind');
  });

  it('offers no Undo without a checkpoint of the state before, and lists no files for a conversation rewind', () => {
    const out = render(<RestoreNotice taskId="t" />, {
      restore: restore({ mode: 'conversation', undoCheckpointId: null }),
    });
    expect(out).not.toContain('Undo');
    expect(out).not.toContain('Written back');
    expect(render(<RestoreNotice taskId="t" />, { restore: restore({ taskId: 'other' }) })).toBe('');
  });

  it('names the reverted file', () => {
    const out = render(<RestoreNotice taskId="t" />, {
      restore: restore({ action: 'revert', mode: 'files', path: 'src/a.ts', removed: [] }),
    });
    expect(out).toContain('Reverted src/a.ts to how it was when the task started.');
    expect(out).toContain('Undo revert');
  });
});

describe("Settings' Checkpoints numbers", () => {
  const base: CheckpointSettings = {
    enabled: true,
    maxFileBytes: 10 * 1024 * 1024,
    keepPerTask: 500,
    keepDays: 30,
    commitOnSuccess: true,
  };

  it('reads the size in MB as bytes and names the first field that is not a number', () => {
    expect(readCheckpointFields(base, { maxFileBytes: '2.5', keepPerTask: '50', keepDays: '0' })).toEqual({
      ok: true,
      settings: { ...base, maxFileBytes: 2.5 * 1024 * 1024, keepPerTask: 50, keepDays: 0 },
    });
    expect(readCheckpointFields(base, { maxFileBytes: '1', keepPerTask: 'lots', keepDays: '' })).toEqual({
      ok: false,
      field: 'keepPerTask',
    });
  });

  it('shows a size as a person reads one', () => {
    expect([0, 512, 3500, 12 * 1024 * 1024, 1.25 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 B',
      '512 B',
      '3.4 KB',
      '12 MB',
      '1.3 GB',
    ]);
  });
});
