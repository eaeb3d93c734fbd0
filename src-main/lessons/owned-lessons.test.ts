// P2.08 end to end on a real SQLite file against the scripted model server: a person approves, edits, dismisses or
// retires proposed lessons; later jobs get the approved ones in their task instruction, the cached prefix unchanged.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Lesson } from '../../src-shared/lessons';
import { complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import {
  lastUser,
  lessonsReply,
  lessonsTable,
  messagesOf,
  reflectionOf,
  reply,
} from '../../test-support/reflection-kit';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';

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
