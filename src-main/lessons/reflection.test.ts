// P2.08 end to end on a real SQLite file and the real openai SDK against the scripted model server: a Reflection job
// after a failed job takes its own path (no workspace, piece or agent preparation), proposes lessons from the model's
// JSON, a person approves, edits or dismisses them, and later jobs get the approved ones in their task instruction —
// the cached prefix (system message and tools) byte for byte what it was without them.
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../src-shared/entities';
import type { Lesson } from '../../src-shared/lessons';
import { approvalTool, call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest, ScriptedStep } from '../../test-support/scripted-llm-server';
import { JobPreparation } from '../worker/prepare-job';

afterEach(() => {
  vi.restoreAllMocks();
});

const reply = (value: unknown): ScriptedStep => ({ text: typeof value === 'string' ? value : JSON.stringify(value) });
const lessonsReply = (...lessons: { lesson: string; evidence?: string; replaces?: string }[]) => reply({ lessons });

const messagesOf = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as { role: string; content: string }[];
const lastUser = (r: RecordedRequest | undefined) =>
  messagesOf(r)
    .filter((m) => m.role === 'user')
    .at(-1)?.content ?? '';

/** The Reflection job of a task, once it has ended. */
async function reflectionOf(h: Harness, taskId: string): Promise<Job> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = h.maestro.store.jobs.reflectionsForTask(taskId).at(-1);
    if (job && ['succeeded', 'failed'].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`no Reflection of ${taskId} ended; it is ${job?.status ?? 'absent'}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const lessonsTable = (h: Harness) => h.maestro.store.db.prepare('SELECT * FROM lessons ORDER BY rowid').all();

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

describe('P2.08 lessons a person owns, in later instructions', () => {
  async function proposed(h: Harness, taskId: string): Promise<Lesson[]> {
    await reflectionOf(h, taskId);
    return h.maestro.invoke('listTaskLessons', { taskId }).lessons;
  }

  it('P2.08 approved lessons reach the next job’s task instruction (not the dismissed one); the cached prefix is byte-stable', async () => {
    const h = await engineHarness(
      [
        complete('first', 'failure'),
        lessonsReply(
          { lesson: 'Run npm test, not jest directly.', evidence: 'jest was not on PATH' },
          { lesson: 'Never push to main.', evidence: 'a one-off correction' },
          { lesson: 'Read README.md before changing the build.', evidence: 'the build is documented there' },
        ),
        complete('second'),
      ],
      { reflection: 'failures' },
    );
    const first = h.createTask('Fix the build');
    await h.waitFor(first.jobId, SETTLED);
    const [a, b, c] = await proposed(h, first.taskId);
    const before = h.server.requests[0];

    h.maestro.invoke('decideLesson', { lessonId: a?.id as string, decision: 'approve' });
    h.maestro.invoke('decideLesson', { lessonId: b?.id as string, decision: 'dismiss' });
    const edited = h.maestro.invoke('editLesson', {
      lessonId: c?.id as string,
      text: 'Read README.md before changing the build scripts.',
    }).lesson;
    expect(edited).toMatchObject({ status: 'proposed', text: 'Read README.md before changing the build scripts.' });
    h.maestro.invoke('decideLesson', { lessonId: c?.id as string, decision: 'approve', scope: 'everywhere' });
    // A decision taken twice, or on a dismissed lesson's edit, is refused and changes nothing.
    const table = JSON.stringify(lessonsTable(h));
    expect(() => h.maestro.invoke('decideLesson', { lessonId: a?.id as string, decision: 'approve' })).toThrow(
      /already approved|is approved/,
    );
    expect(() => h.maestro.invoke('editLesson', { lessonId: b?.id as string, text: 'Push to main.' })).toThrow(
      /dismissed/,
    );
    expect(() => h.maestro.invoke('editLesson', { lessonId: a?.id as string, text: 'y'.repeat(301) })).toThrow(/300/);
    expect(JSON.stringify(lessonsTable(h))).toBe(table);

    const second = h.createTask('Fix the build again');
    await h.waitFor(second.jobId, ['succeeded']);
    const after = h.server.requests[2];
    const instruction = lastUser(after);
    expect(instruction).toContain('# Lessons from earlier tasks (approved by the user)');
    expect(instruction).toContain('- Run npm test, not jest directly.');
    expect(instruction).toContain('- Read README.md before changing the build scripts.');
    expect(instruction).not.toContain('Never push to main');
    // Spec 3.1–3.4: the system message and the tools are the bytes they were before any lesson existed.
    expect(messagesOf(after)[0]).toEqual(messagesOf(before)[0]);
    expect(JSON.stringify(after?.body?.tools)).toBe(JSON.stringify(before?.body?.tools));
    expect(JSON.stringify(messagesOf(after)[0])).not.toContain('Lessons');
    const prefix = (r: RecordedRequest | undefined) =>
      JSON.stringify(r?.body?.tools ?? []) + JSON.stringify(messagesOf(r).slice(0, 1));
    expect(prefix(after)).toBe(prefix(before));

    const used = h.maestro.invoke('listLessons', { status: 'approved' }).lessons;
    expect(used.map((l) => [l.text, l.useCount, l.lastUsedAt !== null])).toEqual([
      ['Read README.md before changing the build scripts.', 1, true],
      ['Run npm test, not jest directly.', 1, true],
    ]);
  });

  it('P2.08 the budget: at most the settings’ count and size, most relevant first (this workspace, then a piece, then everywhere)', async () => {
    const h = await engineHarness([complete('one'), complete('two')]);
    const { store } = h.maestro;
    const ws = fs.realpathSync(h.workspace);
    const add = (text: string, scope: Lesson['scope'], workspacePath = ws, pieceId = 'default') => {
      const l = store.lessons.insert({
        text,
        evidence: '',
        scope,
        workspacePath,
        pieceId,
        sourceTaskId: null,
        sourceJobId: null,
      });
      store.lessons.decide(l.id, 'proposed', 'approved');
      return l;
    };
    add('Everywhere: keep replies short.', 'everywhere');
    add('Piece: finish with a summary.', 'piece', '/elsewhere');
    add('Workspace: use pnpm here.', 'workspace');
    add('Other workspace: use yarn there.', 'workspace', '/elsewhere');
    add('Other piece: never shown.', 'piece', ws, 'other-piece');

    h.maestro.invoke('saveSettings', { lessons: { maxLessons: 2, maxChars: 1000 } });
    const first = h.createTask('x');
    await h.waitFor(first.jobId, ['succeeded']);
    const one = lastUser(h.server.requests[0]);
    expect(one).toContain('- Workspace: use pnpm here.\n- Piece: finish with a summary.');
    expect(one).not.toContain('Everywhere');
    expect(one).not.toContain('yarn');
    expect(one).not.toContain('never shown');

    // Size: in 100 characters the workspace lesson (25) fits, the piece one made 90 long does not after it, and the
    // shorter one after that (everywhere, 31) takes its place.
    h.maestro.invoke('saveSettings', { lessons: { maxLessons: 5, maxChars: 100 } });
    store.db.prepare("UPDATE lessons SET text = 'x' || text WHERE text LIKE 'Piece:%'").run();
    store.db.prepare(`UPDATE lessons SET text = text || '${'y'.repeat(60)}' WHERE text LIKE 'xPiece:%'`).run();
    const second = h.createTask('y');
    await h.waitFor(second.jobId, ['succeeded']);
    const two = lastUser(h.server.requests[1]);
    expect(two).toContain('- Workspace: use pnpm here.');
    expect(two).not.toContain('xPiece');
    expect(two).toContain('- Everywhere: keep replies short.');
  });

  it('P2.08 secrets are redacted before a lesson is stored: the profile’s key and token shapes, from the model and from a person’s edit', async () => {
    const github = `ghp_${'a1B2'.repeat(9)}`;
    const h = await engineHarness(
      [
        complete('no', 'failure'),
        lessonsReply({
          lesson: 'Use the key sk-test when calling the API.',
          evidence: `the token ${github} worked; password=hunter22 too`,
        }),
      ],
      { reflection: 'failures' },
    );
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    const [lesson] = await proposed(h, taskId);
    expect(lesson?.text).toBe('Use the key [redacted] when calling the API.');
    expect(lesson?.evidence).toBe('the token [redacted] worked; password=[redacted] too');
    h.maestro.invoke('editLesson', { lessonId: lesson?.id as string, evidence: 'AKIAABCDEFGHIJKLMNOP leaked' });
    const stored = JSON.stringify(lessonsTable(h));
    for (const secret of ['sk-test', github, 'hunter22', 'AKIAABCDEFGHIJKLMNOP']) expect(stored).not.toContain(secret);
    expect(JSON.stringify(h.maestro.store.events.lastForTask(taskId, 1000))).not.toContain(github);
  });

  it('P2.08 a lesson contradicted by a later one: the Reflection names it, and once the later one is approved the earlier leaves the instructions and is offered for retirement', async () => {
    const h = await engineHarness(
      [
        complete('the tests ran with npm run test:unit', 'failure'),
        reply({
          lessons: [
            {
              lesson: 'Run the unit tests with npm run test:unit.',
              evidence: 'npm test ran the e2e too',
              replaces: 'L1',
            },
          ],
        }),
        complete('second'),
      ],
      { reflection: 'failures' },
    );
    const { store } = h.maestro;
    const kept = store.lessons.insert({
      text: 'Run the tests with npm test.',
      evidence: '',
      scope: 'everywhere',
      workspacePath: '/w',
      pieceId: 'default',
      sourceTaskId: null,
      sourceJobId: null,
    });
    store.lessons.decide(kept.id, 'proposed', 'approved');
    const first = h.createTask('Run the unit tests');
    await h.waitFor(first.jobId, SETTLED);
    const [later] = await proposed(h, first.taskId);
    // The Reflection was shown the kept lesson by its handle, and its answer points back at it.
    expect(lastUser(h.server.requests[1])).toContain('## Lessons already kept\n- L1: Run the tests with npm test.');
    expect(later).toMatchObject({ status: 'proposed', replaces: kept.id, contradictedBy: null });
    // Proposed only: the earlier one still holds.
    expect(h.maestro.invoke('listLessons', { status: 'approved' }).lessons[0]).toMatchObject({ contradictedBy: null });

    h.maestro.invoke('decideLesson', { lessonId: later?.id as string, decision: 'approve' });
    const earlier = h.maestro.invoke('listLessons', {}).lessons.find((l) => l.id === kept.id);
    expect(earlier).toMatchObject({
      status: 'approved',
      contradictedBy: { id: later?.id, text: 'Run the unit tests with npm run test:unit.' },
    });
    const second = h.createTask('Run the tests again');
    await h.waitFor(second.jobId, ['succeeded']);
    const instruction = lastUser(h.server.requests[2]);
    expect(instruction).toContain('- Run the unit tests with npm run test:unit.');
    expect(instruction).not.toContain('Run the tests with npm test.');
  });

  it('P2.08 a Reflection whose lesson replaces a lesson that was not shown to it is refused whole: nothing stored', async () => {
    const h = await engineHarness(
      [complete('no', 'failure'), reply({ lessons: [{ lesson: 'Something else.', replaces: 'L3' }] })],
      { reflection: 'failures' },
    );
    const { taskId, jobId } = h.createTask('x');
    await h.waitFor(jobId, SETTLED);
    expect(await reflectionOf(h, taskId)).toMatchObject({
      status: 'failed',
      error: 'lesson 1 replaces L3, which is not one of the kept lessons',
    });
    expect(lessonsTable(h)).toEqual([]);
  });

  it('P2.08 a lesson unused for longer than retireAfterDays is offered for retirement; retired, it is no longer used', async () => {
    const h = await engineHarness([complete('one')]);
    const { store } = h.maestro;
    const l = store.lessons.insert({
      text: 'Old habit.',
      evidence: '',
      scope: 'everywhere',
      workspacePath: '/w',
      pieceId: 'default',
      sourceTaskId: null,
      sourceJobId: null,
    });
    const long = Date.now() - 90 * 24 * 60 * 60 * 1000;
    store.lessons.decide(l.id, 'proposed', 'approved', {}, long);
    expect(h.maestro.invoke('listLessons', {}).lessons[0]).toMatchObject({ status: 'approved', stale: true });
    h.maestro.invoke('saveSettings', { lessons: { retireAfterDays: 365 } });
    expect(h.maestro.invoke('listLessons', {}).lessons[0]).toMatchObject({ stale: false });
    h.maestro.invoke('decideLesson', { lessonId: l.id, decision: 'retire' });
    const { jobId } = h.createTask('x');
    await h.waitFor(jobId, ['succeeded']);
    expect(lastUser(h.server.requests[0])).not.toContain('Old habit');
  });
});
