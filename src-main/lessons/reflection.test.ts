// P2.08 end to end on a real SQLite file against the scripted model server: a Reflection job after a failed job takes
// its own path (no workspace, piece or agent preparation) and proposes lessons from the model's JSON, or fails whole.
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalTool, call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import {
  lastUser,
  lessonsReply,
  lessonsTable,
  messagesOf,
  reflectionOf,
  reply,
} from '../../test-support/reflection-kit';
import type { ScriptedStep } from '../../test-support/scripted-llm-server';
import { JobPreparation } from '../worker/prepare-job';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('P2.08 Reflection jobs', () => {
  it('P2.08 after a failed job a Reflection job takes its own path: no workspace, piece or agent preparation; one request without tools; lessons proposed; ends succeeded', async () => {
    const prepare = vi.spyOn(JobPreparation.prototype, 'prepare');
    const h = await engineHarness(
      [
        complete('The tests could not be found.', 'failure'),
        lessonsReply(
          { lesson: 'Look for the test command in package.json before running tests.', evidence: 'npm test failed' },
          { lesson: 'Say which folder was searched when something is not found.' },
        ),
      ],
      { reflection: 'failures' },
    );
    const { taskId, jobId } = h.createTask('Run the tests');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'failed' });
    const preparedBefore = prepare.mock.calls.length;
    const reflection = await reflectionOf(h, taskId);

    expect(reflection).toMatchObject({ kind: 'reflection', status: 'succeeded', result: '2 lessons proposed.' });
    // Only the task's own job was prepared: none of workspace check, settings files, piece, runtime dir, snapshot.
    expect(preparedBefore).toBe(1);
    expect(prepare.mock.calls.map(([job]) => job.id)).toEqual([jobId]);
    const own = h.events.filter((e) => e.jobId === reflection.id).map((e) => e.type);
    expect(own).not.toContain('movement.entered');
    expect(own).not.toContain('InvokeStart');
    expect(own).not.toContain('settings.changed');
    expect(h.maestro.store.logEntries.listForTask(taskId).filter((e) => e.jobId === reflection.id)).toEqual([]);

    const request = h.server.requests[1];
    expect(request?.body?.tools).toBeUndefined();
    expect(messagesOf(request).map((m) => m.role)).toEqual(['system', 'user']);
    expect(messagesOf(request)[0]?.content).toContain('At most 3 lessons');
    expect(lastUser(request)).toContain('## Instruction\nRun the tests');
    expect(lastUser(request)).toContain('The job failed.');
    expect(lastUser(request)).toContain('complete(');

    const lessons = h.maestro.invoke('listTaskLessons', { taskId }).lessons;
    expect(lessons.map((l) => [l.status, l.scope, l.text, l.sourceTaskId])).toEqual([
      ['proposed', 'workspace', 'Look for the test command in package.json before running tests.', taskId],
      ['proposed', 'workspace', 'Say which folder was searched when something is not found.', taskId],
    ]);
    expect(lessons[0]?.evidence).toBe('npm test failed');
    expect(h.events.filter((e) => e.type === 'lesson.changed')).toHaveLength(2);
    // Visible in the task's Activity; never the task's status nor its latest job.
    const activity = h.maestro.invoke('listTaskEvents', { taskId }).events;
    expect(
      activity.some((e) => e.type === 'job.changed' && e.job.id === reflection.id && e.job.kind === 'reflection'),
    ).toBe(true);
    expect(h.maestro.store.tasks.get(taskId)?.status).toBe('failed');
    expect(h.maestro.invoke('getTask', { taskId }).jobs.map((j) => j.id)).toEqual([jobId]);
    // A Reflection never queues another one.
    await new Promise((r) => setTimeout(r, 100));
    expect(h.maestro.store.jobs.reflectionsForTask(taskId)).toHaveLength(1);
  });

  it('P2.08 the Reflection request goes through the profile’s LLM client: a 503 is retried like any model call', async () => {
    const h = await engineHarness(
      [
        complete('no', 'failure'),
        { fault: 'http', status: 503, message: 'overloaded' },
        lessonsReply({ lesson: 'Retry later when the server is busy.' }),
      ],
      { reflection: 'failures' },
    );
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    expect(await reflectionOf(h, taskId)).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect(h.server.requests).toHaveLength(3);
    expect(h.maestro.invoke('listTaskLessons', { taskId }).lessons).toHaveLength(1);
  });

  it('P2.08 a Reflection runs with the workspace folder gone and the piece unknown: nothing of them is prepared', async () => {
    const h = await engineHarness([
      complete('no', 'failure'),
      lessonsReply({ lesson: 'Check the folder exists first.' }),
    ]);
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    fs.rmSync(h.workspace, { recursive: true, force: true });
    h.maestro.store.db.prepare("UPDATE jobs SET piece_id = 'no-such-piece' WHERE id = ?").run(jobId);

    const queued = h.maestro.invoke('reflectOnTask', { taskId }).job;
    expect(queued).toMatchObject({ kind: 'reflection', status: 'queued', pieceId: 'no-such-piece' });
    const reflection = await reflectionOf(h, taskId);
    expect(reflection).toMatchObject({ id: queued.id, status: 'succeeded' });
    expect(h.maestro.invoke('listTaskLessons', { taskId }).lessons.map((l) => l.text)).toEqual([
      'Check the folder exists first.',
    ]);
  });

  it('P2.08 the record holds the Sends, the tool calls and results in short, the outcome and the denial with its reason', async () => {
    const h = await engineHarness(
      [
        call('run_command', { command: 'rm -rf build' }),
        complete('Could not clean without rm.', 'failure'),
        lessonsReply({ lesson: 'Ask before deleting folders.', evidence: 'the person denied rm -rf build' }),
      ],
      { tools: [approvalTool()], reflection: 'failures' },
    );
    const { taskId, jobId } = h.createTask('Clean the build');
    await h.waitFor(jobId, ['waiting_human']);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId: request?.id as string,
      decision: 'deny',
      reason: 'build holds the release artefacts',
    });
    await h.waitFor(jobId, ['failed']);
    await reflectionOf(h, taskId);
    const record = lastUser(h.server.requests.at(-1));
    expect(record).toContain('## Denied by the person\n- run_command:');
    expect(record).toContain('reason: build holds the release artefacts');
    expect(record).toContain('run_command({"command":"rm -rf build"}) → failed (denied)');
    expect(record).toContain('Error: Could not clean without rm.');
  });

  it('P2.08 success too when the setting says so (always), none after success by default, none when off', async () => {
    const h = await engineHarness([complete('done'), lessonsReply(), complete('done'), complete('done')], {
      reflection: 'settings',
    });
    h.maestro.invoke('saveSettings', { lessons: { reflection: 'always' } });
    const first = h.createTask('a');
    await h.waitFor(first.jobId, ['succeeded']);
    expect(await reflectionOf(h, first.taskId)).toMatchObject({ status: 'succeeded', result: 'No lesson proposed.' });

    h.maestro.invoke('saveSettings', { lessons: { reflection: 'failures' } });
    const second = h.createTask('b');
    await h.waitFor(second.jobId, ['succeeded']);
    h.maestro.invoke('saveSettings', { lessons: { reflection: 'off' } });
    const third = h.createTask('c');
    await h.waitFor(third.jobId, ['succeeded']);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.maestro.store.jobs.reflectionsForTask(second.taskId)).toEqual([]);
    expect(h.maestro.store.jobs.reflectionsForTask(third.taskId)).toEqual([]);
    expect(h.server.requests).toHaveLength(4);
  });

  it('P2.08 a space’s own setting wins over Settings: `always` in this folder, Settings saying never', async () => {
    const h = await engineHarness([complete('one'), complete('two'), lessonsReply(), complete('three')], {
      reflection: 'settings',
    });
    h.maestro.invoke('saveSettings', { lessons: { reflection: 'off' } });
    const first = h.createTask('a');
    await h.waitFor(first.jobId, ['succeeded']);
    const spaceId = h.maestro.store.tasks.spaceId(first.taskId) as string;
    expect(h.maestro.invoke('listSpaces', {}).spaces.find((s) => s.id === spaceId)).not.toHaveProperty('reflection');
    expect(() => h.maestro.invoke('updateSpace', { spaceId, reflection: 'sometimes' as never })).toThrow();
    expect(h.maestro.invoke('updateSpace', { spaceId, reflection: 'always' }).space).toMatchObject({
      reflection: 'always',
    });

    const second = h.createTask('b');
    await h.waitFor(second.jobId, ['succeeded']);
    expect(await reflectionOf(h, second.taskId)).toMatchObject({ status: 'succeeded' });
    expect(h.maestro.store.jobs.reflectionsForTask(first.taskId)).toEqual([]);

    // Back to the settings' word (null): never.
    h.maestro.invoke('updateSpace', { spaceId, reflection: null });
    const third = h.createTask('c');
    await h.waitFor(third.jobId, ['succeeded']);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.maestro.store.jobs.reflectionsForTask(third.taskId)).toEqual([]);
  });

  it('P2.08 on demand: refused while the task’s job has not ended, and while a Reflection of it is waiting', async () => {
    const h = await engineHarness([{ ...complete('done'), delayMs: 300 }, lessonsReply()]);
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, ['running']);
    expect(() => h.maestro.invoke('reflectOnTask', { taskId })).toThrow(/job_not_terminal|has ended|once it has ended/);
    await h.waitFor(jobId, ['succeeded']);
    h.maestro.invoke('reflectOnTask', { taskId });
    expect(() => h.maestro.invoke('reflectOnTask', { taskId })).toThrow(/already/);
    expect(() => h.maestro.invoke('reflectOnTask', { taskId: 'task_nope' })).toThrow(/no task task_nope/);
    expect(await reflectionOf(h, taskId)).toMatchObject({ status: 'succeeded' });
  });
});

describe('P2.08 a Reflection that fails stores nothing', () => {
  const cases: [string, ScriptedStep, RegExp][] = [
    ['prose instead of JSON', reply('You should be more careful next time.'), /the reply is not JSON/],
    ['another shape', reply({ advice: ['be careful'] }), /the reply is not lessons/],
    [
      'four lessons',
      lessonsReply({ lesson: 'a' }, { lesson: 'b' }, { lesson: 'c' }, { lesson: 'd' }),
      /at most 3 lessons/,
    ],
    [
      'a lesson over the size limit',
      lessonsReply({ lesson: 'x'.repeat(301) }),
      /at most 300 characters.*lessons\.0\.lesson/,
    ],
    [
      'the model server failing',
      { fault: 'http', status: 400, message: 'bad request' },
      /the Reflection request failed/,
    ],
  ];
  it.each(cases)(
    'P2.08 %s: the Reflection job fails with the reason, no lesson is stored',
    async (_name, step, why) => {
      const h = await engineHarness([complete('no', 'failure'), step], { reflection: 'failures' });
      const { taskId, jobId } = h.createTask('x');
      await h.waitFor(jobId, SETTLED);
      const reflection = await reflectionOf(h, taskId);
      expect(reflection.status).toBe('failed');
      expect(reflection.error).toMatch(why);
      expect(lessonsTable(h)).toEqual([]);
      expect(h.events.some((e) => e.type === 'lesson.changed')).toBe(false);
      // The failed Reflection posted nothing in the chat and queued no other Reflection.
      expect(h.maestro.store.comments.listForTask(taskId).filter((c) => c.jobId === reflection.id)).toEqual([]);
      await new Promise((r) => setTimeout(r, 100));
      expect(h.maestro.store.jobs.reflectionsForTask(taskId)).toHaveLength(1);
    },
  );
});
