// Issue 22 end to end through the engine: a task of two Sends (edits, a command that creates a file and one that
// deletes one) in a real git repository and in a plain folder, with the real built-in tools, the OS sandbox and the
// scripted model over HTTP. Checkpoints are taken at each Send and before each step; rewind to each Send (files,
// conversation, both) and back; the person's branches, index, stash and hooks untouched; fork with the cache prefix;
// the workspace commit (P2.21). Every refusal changes nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MaestroError } from '../../src-shared/errors';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { machineSandbox, withoutSandbox } from '../../test-support/tools';

type Msg = { role: string; content: string | null; tool_calls?: { id: string }[] };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).trimEnd();

const ALLOW_COMMANDS = JSON.stringify({ run_command: { allow: ['*'] } });

/** A repository as a person leaves it: a commit, another branch, a stash, a staged and an unstaged change, hooks. */
function personRepo(): string {
  const repo = tempDir('maestro-repo-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'Person');
  git(repo, 'config', 'user.email', 'person@example.com');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(repo, 'keep.txt'), 'keep\n');
  fs.writeFileSync(path.join(repo, '.gitignore'), 'ignored.log\n');
  fs.mkdirSync(path.join(repo, '.maestro'));
  fs.writeFileSync(path.join(repo, '.maestro', 'policy.json'), ALLOW_COMMANDS);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  git(repo, 'branch', 'other');
  fs.writeFileSync(path.join(repo, 'keep.txt'), 'stashed\n');
  git(repo, 'stash', '-q');
  fs.writeFileSync(path.join(repo, 'staged.txt'), 'staged\n');
  git(repo, 'add', 'staged.txt');
  fs.writeFileSync(path.join(repo, 'keep.txt'), 'my own edit\n');
  fs.writeFileSync(path.join(repo, 'ignored.log'), 'log\n');
  for (const hook of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction', 'commit-msg']) {
    const file = path.join(repo, '.git', 'hooks', hook);
    fs.writeFileSync(file, `#!/bin/sh\necho ${hook} >> "${repo}/.git/HOOK-RAN"\n`);
    fs.chmodSync(file, 0o755);
  }
  return repo;
}

/** What of the person's repository no checkpoint or rewind may change. */
function personState(repo: string) {
  return {
    branches: git(repo, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/stash'),
    stash: git(repo, 'stash', 'list'),
    config: fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
    hookRan: fs.existsSync(path.join(repo, '.git', 'HOOK-RAN')),
    ignored: fs.readFileSync(path.join(repo, 'ignored.log'), 'utf8'),
  };
}

const read = (dir: string, file: string) =>
  fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : null;

/** Send #1: write b.txt, edit a.txt, a command creates c.txt. Send #2 (a Continue): a command deletes b.txt, d.txt. */
const TWO_SENDS = [
  call('write_file', { path: 'b.txt', content: 'bee\n' }, 'call_1'),
  call('edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }, 'call_2'),
  call('run_command', { command: 'echo sea > c.txt' }, 'call_3'),
  complete('first done'),
  call('run_command', { command: 'rm b.txt && echo dee > d.txt' }, 'call_4'),
  complete('second done'),
];

async function twoSends(h: Harness, workspace: string) {
  const { taskId, jobId } = h.createTask('Make the files', { workspacePath: workspace });
  expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
  const { job } = h.maestro.invoke('continueTask', { taskId, instruction: 'Now tidy up.' });
  expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
  return { taskId, first: jobId, second: job.id };
}

const commitNotices = (h: Harness, taskId: string) =>
  h.maestro.invoke('getTask', { taskId }).comments.filter((c) => c.notice?.code === 'workspace_commit');

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sendCheckpoint = (h: Harness, taskId: string, send: number) => {
  const found = h.maestro
    .invoke('listCheckpoints', { taskId })
    .checkpoints.find((c) => c.kind === 'send' && c.send === send);
  if (!found) throw new Error(`no checkpoint of Send #${send}`);
  return found;
};

describe.skipIf(withoutSandbox('checkpoints, rewind and fork (their jobs run commands)'))(
  'checkpoints, rewind and fork (issue 22)',
  () => {
    it('P9.21 P2.21 in a git repository: a checkpoint per Send and before each step, what each changed, the workspace commit of each job, rewind files to each Send and back; the person’s branches, stash, index, hooks and config untouched', async () => {
      const repo = personRepo();
      const h = await engineHarness(TWO_SENDS, { policyTools: true, sandbox: machineSandbox, checkpoints: true });
      const before = personState(repo);
      const { taskId, first, second } = await twoSends(h, repo);

      const { checkpoints, state } = h.maestro.invoke('listCheckpoints', { taskId });
      expect(state).toMatchObject({ on: true, store: 'git' });
      expect(checkpoints.map((c) => [c.kind, c.send, c.callId, c.changedBy, c.files])).toEqual([
        ['send', 1, null, null, []],
        // Before call_1 nothing had changed since Send #1's checkpoint: no checkpoint of its own.
        ['step', 1, 'call_2', 'call_1', [{ path: 'b.txt', change: 'added' }]],
        ['step', 1, 'call_3', 'call_2', [{ path: 'a.txt', change: 'modified' }]],
        // What the command of the job's last step did, at its end: never counted as Send #2's.
        ['step', 1, null, 'call_3', [{ path: 'c.txt', change: 'added' }]],
        ['send', 2, null, null, []],
        [
          'step',
          2,
          null,
          'call_4',
          [
            { path: 'b.txt', change: 'deleted' },
            { path: 'd.txt', change: 'added' },
          ],
        ],
      ]);

      // P2.21: each succeeded job committed the files it changed, and only those, on main, without hooks (the commit
      // follows the job's success: its notice says when it is made).
      await until(() => commitNotices(h, taskId).length === 2);
      const log = git(repo, 'log', '--format=%h %s', 'main').split('\n');
      expect(log).toHaveLength(3);
      expect(git(repo, 'show', '--name-status', '--format=', 'main~1').split('\n').sort()).toEqual([
        'A\tb.txt',
        'A\tc.txt',
        'M\ta.txt',
      ]);
      expect(git(repo, 'show', '--name-status', '--format=', 'main').split('\n').sort()).toEqual([
        'A\td.txt',
        'D\tb.txt',
      ]);
      const message = git(repo, 'log', '-1', '--format=%B', 'main');
      expect(message).toContain(`MAESTRO-Task: ${taskId}`);
      expect(message).toContain(`MAESTRO-Job: ${second}`);
      expect(git(repo, 'log', '-1', '--format=%an <%ae>', 'main')).toBe('Person <person@example.com>');
      const committed = h.maestro.invoke('listCheckpoints', { taskId }).checkpoints;
      expect(committed[0]?.commit).toBe(log[1]?.split(' ')[0]);
      expect(committed[4]?.commit).toBe(log[0]?.split(' ')[0]);
      // The person's own changes are theirs still: staged stays staged, the unstaged edit unstaged.
      expect(git(repo, 'status', '--porcelain').split('\n').sort()).toEqual([' M keep.txt', 'A  staged.txt']);
      expect(personState(repo)).toEqual({ ...before, branches: expect.any(String) });
      expect(git(repo, 'for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main\nrefs/heads/other');
      expect(fs.existsSync(path.join(repo, '.git', 'HOOK-RAN'))).toBe(false);
      const comments = h.maestro
        .invoke('getTask', { taskId })
        .comments.filter((c) => c.notice?.code === 'workspace_commit');
      expect(comments.map((c) => c.jobId)).toEqual([first, second]);

      // Rewind the files to Send #2: b.txt back, d.txt gone; the person's own edit kept (it predates Send #2).
      const atSend2 = await h.maestro.invoke('rewindTask', {
        taskId,
        checkpointId: sendCheckpoint(h, taskId, 2).id,
        mode: 'files',
      });
      expect(atSend2.restored).toEqual(['b.txt']);
      expect(atSend2.removed).toEqual(['d.txt']);
      expect([read(repo, 'b.txt'), read(repo, 'd.txt'), read(repo, 'keep.txt')]).toEqual([
        'bee\n',
        null,
        'my own edit\n',
      ]);
      // …to Send #1: as the repository was before the task.
      const atSend1 = await h.maestro.invoke('rewindTask', {
        taskId,
        checkpointId: sendCheckpoint(h, taskId, 1).id,
        mode: 'files',
      });
      expect(atSend1.restored).toEqual(['a.txt']);
      expect(atSend1.removed).toEqual(['b.txt', 'c.txt']);
      expect([read(repo, 'a.txt'), read(repo, 'b.txt'), read(repo, 'c.txt')]).toEqual(['one\n', null, null]);
      expect(read(repo, 'ignored.log')).toBe('log\n');
      // And back (redo): the rewind's own checkpoint is the state before it.
      const redo = await h.maestro.invoke('rewindTask', {
        taskId,
        checkpointId: atSend1.undoCheckpointId as string,
        mode: 'files',
      });
      expect(redo.restored.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
      expect([read(repo, 'a.txt'), read(repo, 'b.txt'), read(repo, 'd.txt')]).toEqual(['two\n', 'bee\n', null]);
      // None of it touched the person's branches, stash, hooks, config or ignored files, nor their index.
      expect(personState(repo)).toEqual({ ...before, branches: expect.any(String) });
      expect(git(repo, 'diff', '--cached', '--name-only')).toBe('staged.txt');
      expect(git(repo, 'for-each-ref', '--format=%(refname)', 'refs/maestro').split('\n').length).toBeGreaterThan(5);
    });

    it('P9.21 rewinding the conversation to Send #2: the next job never hears Send #2’s turns; undone, it does again; a step checkpoint is refused for it', async () => {
      const folder = tempDir('maestro-plain-');
      fs.mkdirSync(path.join(folder, '.maestro'));
      fs.writeFileSync(path.join(folder, '.maestro', 'policy.json'), ALLOW_COMMANDS);
      fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
      const h = await engineHarness([...TWO_SENDS, complete('third'), complete('fourth')], {
        policyTools: true,
        sandbox: machineSandbox,
        checkpoints: true,
      });
      const { taskId } = await twoSends(h, folder);
      expect(h.maestro.invoke('listCheckpoints', { taskId }).state).toMatchObject({ on: true, store: 'plain' });
      const step = h.maestro.invoke('listCheckpoints', { taskId }).checkpoints.find((c) => c.kind === 'step');
      const listedBefore = h.maestro.invoke('listCheckpoints', { taskId });
      await expect(
        h.maestro.invoke('rewindTask', { taskId, checkpointId: step?.id as string, mode: 'conversation' }),
      ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/inside an AgentTurn/) });
      await expect(
        h.maestro.invoke('rewindTask', { taskId, checkpointId: 'cp_of_another_task', mode: 'both' }),
      ).rejects.toBeInstanceOf(MaestroError);
      expect(h.maestro.invoke('listCheckpoints', { taskId })).toEqual(listedBefore);

      const both = await h.maestro.invoke('rewindTask', {
        taskId,
        checkpointId: sendCheckpoint(h, taskId, 2).id,
        mode: 'both',
      });
      expect(both.removed).toEqual(['d.txt']);
      const { rewinds } = h.maestro.invoke('listCheckpoints', { taskId });
      expect(rewinds).toMatchObject([{ send: 2, undone: false }]);
      const { job } = h.maestro.invoke('continueTask', { taskId, instruction: 'Third.' });
      expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
      const third = messages(h.server.requests.at(-1));
      const text = JSON.stringify(third);
      expect(text).toContain('Make the files');
      expect(text).toContain('call_1');
      expect(text).not.toContain('call_4');
      expect(text).not.toContain('Now tidy up.');

      // Undo the conversation rewind: the rewind's checkpoint takes it back.
      await h.maestro.invoke('rewindTask', {
        taskId,
        checkpointId: both.undoCheckpointId as string,
        mode: 'conversation',
      });
      expect(h.maestro.invoke('listCheckpoints', { taskId }).rewinds).toMatchObject([{ send: 2, undone: true }]);
      const next = h.maestro.invoke('continueTask', { taskId, instruction: 'Fourth.' });
      expect((await h.waitFor(next.job.id, SETTLED)).status).toBe('succeeded');
      expect(JSON.stringify(messages(h.server.requests.at(-1)))).toContain('call_4');
    });

    it('P9.21 fork at Send #2: a new task in the same folder holding the conversation before it, linked both ways, whose first request shares the original’s byte-identical prefix; files untouched; a Send that does not exist is refused', async () => {
      const folder = tempDir('maestro-plain-');
      fs.mkdirSync(path.join(folder, '.maestro'));
      fs.writeFileSync(path.join(folder, '.maestro', 'policy.json'), ALLOW_COMMANDS);
      fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
      const h = await engineHarness([...TWO_SENDS, complete('forked')], {
        policyTools: true,
        sandbox: machineSandbox,
        checkpoints: true,
      });
      const { taskId } = await twoSends(h, folder);
      const send2Request = JSON.stringify(messages(h.server.requests[4]).slice(0, -1));
      const files = fs.readdirSync(folder).sort();
      const tasksBefore = h.maestro.invoke('listTasks', {}).tasks.length;
      expect(() => h.maestro.invoke('forkTask', { taskId, send: 3 })).toThrow(/has 2 Sends; there is no Send #3/);
      expect(h.maestro.invoke('listTasks', {}).tasks).toHaveLength(tasksBefore);

      const fork = h.maestro.invoke('forkTask', { taskId, send: 2, instruction: 'Now tidy up.' });
      expect(fork.task).toMatchObject({ workspacePath: folder, forkedFrom: { taskId, send: 2 } });
      expect((await h.waitFor(fork.job?.id as string, SETTLED)).status).toBe('succeeded');
      const forkRequest = messages(h.server.requests.at(-1));
      // Everything before the trailing user message is byte-identical to the original's Send #2 request.
      expect(JSON.stringify(forkRequest.slice(0, -1))).toBe(send2Request);
      expect(forkRequest.at(-1)?.content).toContain('Now tidy up.');
      expect(fs.readdirSync(folder).sort()).toEqual(files);
    });

    it('git missing: the task runs, checkpoints are off, the task says so once', async () => {
      const folder = tempDir('maestro-plain-');
      fs.writeFileSync(path.join(folder, 'a.txt'), 'one\n');
      const noGit = tempDir('maestro-nogit-path-');
      const pathBefore = process.env.PATH;
      const h = await engineHarness(
        [call('write_file', { path: 'b.txt', content: 'b' }, 'call_1'), complete('one'), complete('two')],
        { policyTools: true, checkpoints: true },
      );
      process.env.PATH = noGit;
      try {
        const { taskId, jobId } = h.createTask('Write b', { workspacePath: folder });
        expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
        const { job } = h.maestro.invoke('continueTask', { taskId });
        expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');
        expect(read(folder, 'b.txt')).toBe('b');
        const said = h.maestro
          .invoke('getTask', { taskId })
          .comments.filter((c) => c.notice?.code === 'checkpoints_off');
        expect(said).toHaveLength(1);
        expect(said[0]?.notice).toEqual({ code: 'checkpoints_off', reason: 'no_git' });
        expect(h.maestro.invoke('listCheckpoints', { taskId })).toMatchObject({
          checkpoints: [],
          state: { on: false },
        });
      } finally {
        process.env.PATH = pathBefore;
      }
    });

    it('P2.21 a workspace whose accepted policy says workspace_commit: false gets no commit; its checkpoints are taken as ever', async () => {
      const repo = personRepo();
      fs.writeFileSync(
        path.join(repo, '.maestro', 'policy.json'),
        JSON.stringify({ run_command: { allow: ['*'] }, workspace_commit: false }),
      );
      const h = await engineHarness([call('write_file', { path: 'b.txt', content: 'b' }, 'call_1'), complete('done')], {
        policyTools: true,
        checkpoints: true,
      });
      const head = git(repo, 'rev-parse', 'HEAD');
      const { taskId, jobId } = h.createTask('Write b', { workspacePath: repo });
      expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
      await until(() => h.maestro.invoke('listCheckpoints', { taskId }).checkpoints.length === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
      expect(commitNotices(h, taskId)).toEqual([]);
      expect(read(repo, 'b.txt')).toBe('b');
    });

    it('a checkpoint that cannot be taken (its index cannot be written) never holds the step up: the file is written, the chat says so once', async () => {
      const folder = tempDir('maestro-plain-');
      const h = await engineHarness(
        [
          call('write_file', { path: 'a.txt', content: 'a' }, 'call_1'),
          call('write_file', { path: 'b.txt', content: 'b' }, 'call_2'),
          complete('done'),
        ],
        { policyTools: true, checkpoints: true },
      );
      // Where the task's index would go is a file: every capture fails (a full or broken disk looks the same to it).
      fs.mkdirSync(path.join(h.dataDir, 'checkpoints'), { recursive: true });
      fs.writeFileSync(path.join(h.dataDir, 'checkpoints', 'index'), 'not a folder');
      const { taskId, jobId } = h.createTask('Write two files', { workspacePath: folder });
      expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
      expect([read(folder, 'a.txt'), read(folder, 'b.txt')]).toEqual(['a', 'b']);
      const missed = h.maestro
        .invoke('getTask', { taskId })
        .comments.filter((c) => c.notice?.code === 'checkpoint_missed');
      expect(missed.map((c) => c.notice)).toEqual([{ code: 'checkpoint_missed', reason: 'failed' }]);
      expect(h.maestro.invoke('listCheckpoints', { taskId }).checkpoints).toEqual([]);
    });
  },
);
