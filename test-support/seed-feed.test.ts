// The seeded conversation: every comment in order under one finished job, all kinds present, the last one named.
import { describe, expect, it } from 'vitest';
import { seedBody, seedFeedTask } from './seed-feed';
import { tempDir, testMaestro } from './temp-maestro';

describe('seedFeedTask', () => {
  it('writes a task with its comments in order under one finished job, readable through getTask', () => {
    const dataDir = tempDir();
    const maestro = testMaestro({ dataDir });
    const seeded = seedFeedTask(dataDir, tempDir(), 'Long feed', 40);
    const { task, jobs, comments } = maestro.invoke('getTask', { taskId: seeded.taskId });
    expect(task.title).toBe('Long feed');
    expect(jobs.map((j) => j.status)).toEqual(['succeeded']);
    expect(comments.map((c) => c.id)).toEqual(seeded.commentIds);
    expect(comments[0]?.kind).toBe('instruction');
    expect(new Set(comments.map((c) => c.kind))).toEqual(
      new Set(['instruction', 'result', 'comment', 'question', 'answer', 'interjection', 'handoff', 'error']),
    );
    expect(comments.at(-1)?.body).toBe(seedBody(39, 40));
    expect(comments.at(-1)?.body).toContain('Entry #39 (the last)');
    expect(comments.some((c) => c.body.includes('```ts'))).toBe(true);
  });

  it('refuses an empty conversation, writing nothing', () => {
    const dataDir = tempDir();
    const maestro = testMaestro({ dataDir });
    expect(() => seedFeedTask(dataDir, tempDir(), 'Empty', 0)).toThrow(/entries must be ≥ 1, got 0/);
    expect(maestro.invoke('listTasks', {}).tasks).toEqual([]);
  });
});
