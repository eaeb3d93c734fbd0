// Test support: a task with a long conversation, written straight into a data dir's SQLite file (one transaction),
// for the feed's end-to-end test and bench/ui. Its jobs have finished, so the task is idle and a new comment starts a
// follow-up job. Comments of every kind and author, short and long, some Markdown with code and tables; with `steps`,
// about half the entries are the agent's recorded steps instead (seed-feed-steps.ts), as the chat now shows them.

import { Store } from '../src-main/db/store';
import { dbFile } from '../src-main/workspace/paths';
import type { CommentAuthor, CommentKind } from '../src-shared/entities';
import { seedSteppedConversation } from './seed-feed-steps';

export interface SeededFeed {
  taskId: string;
  title: string;
  /** The comment ids, oldest first. */
  commentIds: string[];
  /** Every entry's id, a comment's or a step's (`step:<seq>`), oldest first; the last is always a comment. */
  itemIds: string[];
  jobCount: number;
}

export interface SeedOptions {
  /** About half the entries as recorded steps, in jobs of JOB_ENTRIES (default: comments only, under one job). */
  steps?: boolean;
}

/** The text of entry `i` (0-based); the first is the instruction. Every body names its entry, so a test can find it. */
export function seedBody(i: number, entries: number): string {
  const name = i === entries - 1 ? `Entry #${i} (the last)` : `Entry #${i}`;
  if (i === 0) return `${name}: keep a long conversation going.`;
  if (i % 10 === 3) {
    return [
      `${name}: the change, as a patch to review.`,
      '',
      '```ts',
      `export function step${i}(input: number[]): number {`,
      '  // Sum the even values only.',
      '  return input.filter((x) => x % 2 === 0).reduce((a, b) => a + b, 0);',
      '}',
      '```',
      '',
      'It keeps the **old** behaviour for odd values.',
    ].join('\n');
  }
  if (i % 10 === 7) {
    return [
      `${name}: the sizes.`,
      '',
      '| File | Bytes |',
      '| --- | ---: |',
      `| a${i}.txt | ${i * 3} |`,
      '| b.txt | 34 |',
    ].join('\n');
  }
  if (i % 6 === 5) {
    const sentence = 'The queue persists every job before it is acknowledged, so a crash loses nothing. ';
    return `${name}: ${sentence.repeat(1 + (i % 8))}`.trim();
  }
  if (i % 4 === 2) return `${name}:\n\n- read the file\n- count the lines\n- report \`${i}\` back`;
  return `${name}: ok.`;
}

const TURNS: readonly { kind: CommentKind; author: CommentAuthor }[] = [
  { kind: 'result', author: 'agent' },
  { kind: 'comment', author: 'user' },
  { kind: 'question', author: 'agent' },
  { kind: 'answer', author: 'user' },
  { kind: 'interjection', author: 'user' },
  { kind: 'handoff', author: 'agent' },
  { kind: 'comment', author: 'system' },
  { kind: 'error', author: 'system' },
];

/**
 * Writes a task titled `title` with `entries` comments (entries ≥ 1) into the DB of `dataDir`, a second apart and
 * ending now. Safe while a host runs on the same data dir (WAL; the job is inserted already finished, in the same
 * transaction, so no Worker can claim it).
 */
export function seedFeedTask(
  dataDir: string,
  workspace: string,
  title: string,
  entries: number,
  options: SeedOptions = {},
): SeededFeed {
  if (!Number.isInteger(entries) || entries < 1) throw new Error(`seedFeedTask: entries must be ≥ 1, got ${entries}`);
  const store = Store.open(dbFile(dataDir));
  try {
    const start = Date.now() - entries * 1000;
    const taskId = `task_seed_${entries}_${start.toString(36)}`;
    const seeded = store.transact(() => {
      store.tasks.insert({
        id: taskId,
        title,
        instruction: seedBody(0, entries),
        pieceId: 'default',
        workspacePath: workspace,
        workspaceKind: 'persistent',
        profile: null,
        parentTaskId: null,
        createdAt: start,
      });
      if (options.steps) return seedSteppedConversation(store, taskId, start, entries, (i) => seedBody(i, entries));
      const queued = store.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' }, start);
      const owner = 'seed';
      store.jobs.transition(
        queued.id,
        'queued',
        'running',
        { workerId: owner, attempt: 1, pendingInvoke: null },
        { now: start },
      );
      store.jobs.transition(queued.id, 'running', 'succeeded', { result: 'seeded' }, { owner, now: start + 1 });
      const ids: string[] = [];
      for (let i = 0; i < entries; i++) {
        const turn = i === 0 ? { kind: 'instruction' as const, author: 'user' as const } : TURNS[i % TURNS.length];
        if (!turn) throw new Error('unreachable: TURNS is not empty');
        const body = seedBody(i, entries);
        ids.push(store.comments.insert({ taskId, jobId: queued.id, ...turn, body }, start + i * 1000).id);
      }
      return { commentIds: ids, itemIds: ids, jobCount: 1 };
    });
    return { taskId, title, ...seeded };
  } finally {
    store.close();
  }
}
