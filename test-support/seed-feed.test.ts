// The seeded conversation: every comment in order under one finished job, all kinds present, the last one named.
import { describe, expect, it } from 'vitest';
import type { ChatStep, Comment } from '../src-shared/entities';
import { seedBody, seedFeedTask } from './seed-feed';
import { JOB_ENTRIES } from './seed-feed-steps';
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

  it('with steps: half the entries are recorded steps with their answers, in finished jobs, paged in the order seeded', () => {
    const dataDir = tempDir();
    const maestro = testMaestro({ dataDir });
    const entries = 6 * JOB_ENTRIES + 20;
    const seeded = seedFeedTask(dataDir, tempDir(), 'Long chat', entries, { steps: true });
    expect(seeded.itemIds).toHaveLength(entries);
    expect(seeded.jobCount).toBe(7);

    // The whole chat, read the way the feed reads it: the latest page, then the pages before its first item.
    const recent = maestro.invoke('getTaskRecent', { taskId: seeded.taskId });
    expect(recent.jobs.map((j) => j.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'failed',
      'succeeded',
    ]);
    const comments: Comment[] = [...recent.comments];
    const steps: ChatStep[] = [...recent.steps];
    let older = recent.olderCount;
    let first = seeded.itemIds[entries - recent.comments.length - recent.steps.length] as string;
    while (older > 0) {
      const page = maestro.invoke('listChatBefore', { taskId: seeded.taskId, itemId: first });
      comments.unshift(...page.comments);
      steps.unshift(...page.steps);
      older = page.olderCount;
      first = [...page.comments, ...page.steps].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]?.id ?? '';
    }
    const order = [...comments, ...steps].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((x) => x.id);
    expect(order).toEqual(seeded.itemIds);
    expect(comments.map((c) => c.id)).toEqual(seeded.commentIds);
    expect(steps.length / entries).toBeGreaterThan(0.45);
    expect(steps.length / entries).toBeLessThan(0.55);

    // Each job opens with the person's words and closes with the result, a question (answered next) or an error.
    expect(comments[0]?.kind).toBe('instruction');
    expect(comments.filter((c) => c.kind === 'question')).toHaveLength(1);
    expect(comments.filter((c) => c.kind === 'answer')).toHaveLength(1);
    expect(comments.filter((c) => c.kind === 'error')).toHaveLength(1);
    expect(comments.at(-1)).toMatchObject({ kind: 'result', author: 'agent', body: seedBody(entries - 1, entries) });

    // Every call is answered through agent_turn_seq; edits carry their diff, a retried turn its LlmCalls.
    const calls = steps.flatMap((s) => s.toolCalls);
    expect(calls.every((c) => c.result !== null)).toBe(true);
    const edit = calls.find((c) => c.name === 'edit_file');
    expect(edit?.result?.content).toMatch(/^Edited src\/module\d+\.ts: replaced 1 occurrence\n--- a\/.*\n@@ /s);
    expect(new Set(calls.map((c) => c.name))).toEqual(
      new Set(['read_file', 'run_command', 'edit_file', 'grep', 'complete']),
    );
    expect(steps.some((s) => s.usage.llmCalls === 2 && s.usage.promptTokens > 0)).toBe(true);
    expect(steps.filter((s) => s.error !== null)).toHaveLength(1);
    const usage = maestro.invoke('getUsage', { taskId: seeded.taskId });
    expect(usage.invokes).toHaveLength(7);
  });

  it('refuses an empty conversation, writing nothing', () => {
    const dataDir = tempDir();
    const maestro = testMaestro({ dataDir });
    expect(() => seedFeedTask(dataDir, tempDir(), 'Empty', 0)).toThrow(/entries must be ≥ 1, got 0/);
    expect(maestro.invoke('listTasks', {}).tasks).toEqual([]);
  });
});
