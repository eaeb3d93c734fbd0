// The static preamble (byte-stable per workspace, piece and tools) and the dynamic context of the trailing user message.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Task } from '../../src-shared/entities';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { setup } from '../../test-support/tasks';
import { tempDir } from '../../test-support/temp-maestro';
import { storeJournal } from '../jobs/journal';
import { createTask } from '../tasks/create';
import type { AnyToolDef } from '../tools/types';
import { dynamicContext, jobInstruction, taskContext, workspaceFiles } from './dynamic-context';
import type { PieceDefinition } from './pieces/schema';
import { staticPreamble } from './prompt';

const piece = { id: 'default', name: 'Default', description: 'One movement.' } as PieceDefinition;
const tool = (name: string, description: string): AnyToolDef => ({
  name,
  description,
  parameters: z.object({}),
  readOnly: true,
  execute: async () => ({ kind: 'result', ok: true, content: '' }),
});
const TOOLS = [tool('read_file', 'Reads a file. Long details.'), tool('grep', 'Searches files.')];
const task = { id: 't1', title: 'Fix the build', instruction: 'Fix it' } as Task;

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** A workspace with every kind of instruction, memory and skill file. */
function richWorkspace(): string {
  const ws = tempDir('maestro-ws-');
  write(ws, 'AGENTS.md', 'Use pnpm.\n');
  write(ws, 'CLAUDE.md', 'Prefer small commits.');
  write(ws, '.maestro/AGENTS.md', 'Run the tests before complete.');
  write(ws, '.maestro/memory/build.md', 'Some intro\n\n## Build quirks  \nThe build needs Node 20.');
  write(ws, '.maestro/memory/people.md', 'No heading here.');
  write(ws, '.maestro/memory/notes.txt', 'not markdown');
  write(
    ws,
    '.maestro/skills/release/SKILL.md',
    '---\nname: Release\ndescription: >\n  Cuts a release:\n  tag and notes.\n---\n# Release\n',
  );
  write(ws, '.maestro/skills/zz-plain/SKILL.md', '# No front matter');
  write(ws, '.maestro/skills/broken/SKILL.md', '---\nname: [unclosed\n---\n');
  fs.mkdirSync(path.join(ws, '.maestro/skills/empty-dir'), { recursive: true });
  write(ws, 'src/index.ts', 'export {};');
  return ws;
}

describe('prompt: static preamble and dynamic context', () => {
  it('P4.04 the preamble holds rules, tools, AGENTS/CLAUDE/.maestro AGENTS, the Memory and Skills indexes, the working directory — in that order', () => {
    const ws = richWorkspace();
    const text = staticPreamble(piece, TOOLS, ws);
    expect(text).toMatch(/^You are MAESTRO's agent\./);
    expect(text).toContain('# Tools\n- read_file: Reads a file\n- grep: Searches files.');
    expect(text).toContain('# Project instructions (AGENTS.md)\nUse pnpm.');
    expect(text).toContain('# Project instructions (CLAUDE.md)\nPrefer small commits.');
    expect(text).toContain('# Project instructions (.maestro/AGENTS.md)\nRun the tests before complete.');
    expect(text).toContain('- .maestro/memory/build.md: Build quirks\n- .maestro/memory/people.md: people');
    expect(text).not.toContain('notes.txt');
    expect(text).toContain(
      '- broken (.maestro/skills/broken/SKILL.md)\n- Release (.maestro/skills/release/SKILL.md): Cuts a release: tag and notes.\n- zz-plain (.maestro/skills/zz-plain/SKILL.md)',
    );
    expect(text).not.toContain('empty-dir');
    expect(text.endsWith(`# Working directory\n${ws}`)).toBe(true);
    const order = [
      '# Tools',
      '(AGENTS.md)',
      '(CLAUDE.md)',
      '(.maestro/AGENTS.md)',
      '# Memory',
      '# Skills',
      '# Working',
    ];
    const at = order.map((h) => text.indexOf(h));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('P4.04 P5.06 the preamble is byte-stable: the same again, with other files around; nothing time- or task-bound in it', () => {
    const ws = richWorkspace();
    const a = staticPreamble(piece, TOOLS, ws);
    write(ws, 'new-file.txt', 'x');
    write(ws, 'src/more.ts', 'y');
    expect(staticPreamble(piece, TOOLS, ws)).toBe(a);
    expect(a).not.toMatch(/Current time|Fix the build|Handoff|console/i);
    // A bare workspace has none of the optional sections.
    const bare = staticPreamble(piece, TOOLS, tempDir('maestro-ws-'));
    expect(bare).not.toMatch(/# Project instructions|# Memory|# Skills/);
  });

  it('P4.05 the dynamic context: time, task, Mission, a bounded file listing, handoff and recent console output when given', () => {
    const ws = tempDir('maestro-ws-');
    for (let i = 0; i < 130; i++) write(ws, `f${String(i).padStart(3, '0')}.txt`, '');
    write(ws, 'node_modules/pkg/index.js', '');
    write(ws, '.git/HEAD', '');
    const now = new Date('2026-01-02T03:04:05.000Z');
    const plain = dynamicContext(task, ws, now);
    expect(plain).toMatch(
      /^# Context\nCurrent time: 2026-01-02T03:04:05.000Z\nTask: Fix the build\nWorkspace files: f000.txt, /,
    );
    expect(plain).toMatch(/, … \(31 more\)$/);
    expect(plain).not.toMatch(/\.git|Mission|Handoff|console/);
    const full = dynamicContext(task, ws, now, 'The previous job ended failed.', {
      mission: 'Ship 1.0',
      consoleOutput: `${'x'.repeat(5000)}END\n`,
    });
    expect(full).toContain('\nMission: Ship 1.0\n');
    expect(full).toContain('\nHandoff: The previous job ended failed.');
    expect(full).toMatch(/\n# Recent console output\n```\n…x+END\n```$/);
    expect(full.length).toBeLessThan(plain.length + 4200);
    // One level down is listed; bulky folders are not entered.
    const nested = tempDir('maestro-ws-');
    write(nested, 'src/a.ts', '');
    write(nested, 'src/deep/b.ts', '');
    write(nested, 'node_modules/x/y.js', '');
    expect(dynamicContext(task, nested, now)).toContain('Workspace files: node_modules/, src/, src/a.ts, src/deep/');
  });

  it('P2.20 who started a task and the Mission it serves: the scheduler, another agent, a parent; none for the user', () => {
    const { m, store, create } = setup({ defaultWorkspace: tempDir('maestro-ws-') });
    const { task: mine, job: created } = create({ title: 'Mine' });
    const job = { ...created, pendingInvoke: null };
    expect(taskContext(storeJournal(store, mine, job))).toEqual({ mission: null, provenance: null });
    const scheduled = createTask(m.ctx, { instruction: 'Nightly check' }, { invoke: 'Wakeup', author: 'system' }).task;
    expect(taskContext(storeJournal(store, scheduled, job))).toEqual({
      mission: null,
      provenance: 'the scheduler (a scheduled run)',
    });
    const asked = createTask(m.ctx, { instruction: 'Summarize' }, { invoke: 'PodEvent', author: 'agent' }).task;
    expect(taskContext(storeJournal(store, asked, job)).provenance).toBe('another agent, over the bridge');
    // A subtask of a subtask: the Mission is the root's; the provenance names the direct parent.
    const child = { ...asked, id: 'child', title: 'Child', parentTaskId: mine.id };
    const grandchild = { ...asked, id: 'grandchild', parentTaskId: 'child' };
    store.db
      .prepare(
        'INSERT INTO tasks SELECT ?, ?, instruction, piece_id, workspace_path, workspace_kind, profile, ?, created_at, space_id, piece_choice, archived_at, NULL, NULL, NULL FROM tasks WHERE id = ?',
      )
      .run(child.id, child.title, mine.id, asked.id);
    expect(taskContext(storeJournal(store, grandchild, job))).toEqual({
      mission: 'Mine',
      provenance: 'a subtask of the task "Child"',
    });
  });

  it('P2.20 the first request of a subtask carries its Mission and who started it; that of its parent neither', async () => {
    const h = await engineHarness([
      call('create_subtask', { instruction: 'Write the changelog', title: 'Changelog' }),
      complete('parent part'),
      complete('changelog written'),
      complete('all done'),
    ]);
    const { jobId } = h.createTask('Release 1.0');
    expect(await h.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    const context = (i: number) => {
      const body = h.server.requests[i]?.body as { messages: { content: string }[] };
      return body.messages.at(-1)?.content ?? '';
    };
    expect(context(0)).not.toMatch(/^(Mission|Started by):/m);
    expect(context(2)).toMatch(/^Mission: Release 1\.0$/m);
    expect(context(2)).toMatch(/^Started by: a subtask of the task "Release 1\.0"$/m);
  });

  it('P5.06 P4.04 two jobs of one task in a workspace with AGENTS, memory and skills: byte-identical system messages', async () => {
    const ws = richWorkspace();
    const h = await engineHarness([complete('first'), complete('second')], { workspace: ws });
    const { taskId, jobId } = h.createTask('First thing');
    await h.waitFor(jobId, SETTLED);
    write(ws, 'made-between.txt', 'changes the file listing only');
    await new Promise((r) => setTimeout(r, 5));
    const followup = h.maestro.invoke('addComment', { taskId, body: 'And another thing' });
    await h.waitFor(followup.job?.id as string, SETTLED);
    const [a, b] = h.server.requests.map((r) => r.body?.messages as { content: string }[]);
    expect(b?.[0]?.content).toBe(a?.[0]?.content);
    expect(a?.[0]?.content).toContain('# Skills\n');
    expect(a?.[0]?.content).toContain('# Memory\n');
    expect(b?.[1]?.content).toContain('made-between.txt');
    expect(a?.[1]?.content).not.toContain('made-between.txt');
  });
});

describe('the job instruction (prepareMovementContext)', () => {
  it('P3.12 a first job gets the task alone; a follow-up adds the comment, each part only when present', () => {
    const { m, store, create } = setup();
    const { task, job } = create({ instruction: 'Fix the build' });
    const first = store.jobs.get(job.id);
    if (!first) throw new Error('no job');
    expect(jobInstruction(storeJournal(store, task, first))).toBe('# Task\nFix the build');

    store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w1', heartbeatAt: Date.now() });
    store.jobs.transition(job.id, 'running', 'succeeded', { result: 'done' });
    const followup = m.invoke('addComment', { taskId: task.id, body: 'Also update the changelog.' });
    const next = store.jobs.get(followup.job?.id as string);
    if (!next) throw new Error('no follow-up job');
    const text = jobInstruction(storeJournal(store, task, next));
    expect(text).toBe('# Task\nFix the build\n\n# Follow-up from the user\nAlso update the changelog.');
    expect(text).not.toMatch(/# (Continue|Your question|Subtasks)/);
  });
});

describe('the workspace listing of the dynamic context', () => {
  it('lists top level then one level down, and stops reading folders once its list is full (issue 28)', () => {
    const root = tempDir('maestro-listing-');
    for (let d = 0; d < 30; d++) {
      fs.mkdirSync(path.join(root, `dir${String(d).padStart(2, '0')}`));
      for (let f = 0; f < 10; f++)
        fs.writeFileSync(path.join(root, `dir${String(d).padStart(2, '0')}`, `f${f}.txt`), '');
    }
    const reads: string[] = [];
    const readdir = fs.readdirSync;
    const spied = ((dir: fs.PathLike, ...rest: unknown[]) => {
      reads.push(String(dir));
      return (readdir as (...a: unknown[]) => unknown)(dir, ...rest);
    }) as typeof fs.readdirSync;
    fs.readdirSync = spied;
    try {
      const text = workspaceFiles(root, 25);
      expect(text.split(', ').slice(0, 3)).toEqual(['dir00/', 'dir01/', 'dir02/']);
      expect(text.endsWith(', … (more not listed)')).toBe(true);
      // The top level and no more than the folders needed to fill the list (none here: the top level fills it).
      expect(reads).toEqual([root]);
      expect(workspaceFiles(root, 50)).toContain('dir00/f9.txt');
    } finally {
      fs.readdirSync = readdir;
    }
    const small = tempDir('maestro-listing-');
    fs.writeFileSync(path.join(small, 'a.txt'), '');
    expect(workspaceFiles(small, 25)).toBe('a.txt');
  });
});
