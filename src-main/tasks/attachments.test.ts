// An instruction's attachments as the chat sees them: name, type and size on the instruction comment (no bytes), and
// getTaskAttachment for one file's bytes; nothing outside what the task was given.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectMaestroError, setup } from '../../test-support/tasks';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const NOTES = Buffer.from('remember the WAL\n');

function withAttachments() {
  const s = setup();
  const { task } = s.create({
    attachments: [
      { name: 'shot 1.png', mediaType: 'image/png', data: PNG.toString('base64') },
      { name: 'notes.md', mediaType: 'text/markdown', data: NOTES.toString('base64') },
    ],
  });
  return { ...s, task };
}

describe('attachments in the chat (P10.09)', () => {
  it('the instruction comment lists each file with its type and size, and no bytes, in every read of the chat', () => {
    const { m, task } = withAttachments();
    const listed = [
      { name: 'shot 1.png', mediaType: 'image/png', bytes: PNG.length },
      { name: 'notes.md', mediaType: 'text/markdown', bytes: NOTES.length },
    ];
    const fromTask = m.invoke('getTask', { taskId: task.id }).comments[0];
    const fromPage = m.invoke('getTaskRecent', { taskId: task.id }).comments[0];
    expect(fromTask).toMatchObject({ kind: 'instruction', attachments: listed });
    expect(fromPage?.attachments).toEqual(listed);
    expect(JSON.stringify(fromPage)).not.toContain(PNG.toString('base64'));
    // A task without attachments has none on its instruction.
    const plain = m.invoke('createTask', { instruction: 'no files' });
    expect(m.invoke('getTask', { taskId: plain.task.id }).comments[0]).not.toHaveProperty('attachments');
  });

  it('getTaskAttachment answers one listed file with its bytes', () => {
    const { m, task } = withAttachments();
    const image = m.invoke('getTaskAttachment', { taskId: task.id, name: 'shot 1.png' });
    expect(image).toEqual({
      name: 'shot 1.png',
      mediaType: 'image/png',
      bytes: PNG.length,
      data: PNG.toString('base64'),
    });
    expect(Buffer.from(m.invoke('getTaskAttachment', { taskId: task.id, name: 'notes.md' }).data, 'base64')).toEqual(
      NOTES,
    );
  });

  it('a file the task was not given, a path, another task or a file gone from disk → an error naming it', () => {
    const { m, task, create } = withAttachments();
    const missing = expectMaestroError(
      () => m.invoke('getTaskAttachment', { taskId: task.id, name: 'other.png' }),
      'not_found',
    );
    expect(missing.message).toContain('other.png');
    // A file in the attachments folder that the instruction does not list is not served.
    fs.writeFileSync(path.join(m.ctx.dataDir, 'runs', task.id, 'attachments', 'stray.txt'), 'x');
    expectMaestroError(() => m.invoke('getTaskAttachment', { taskId: task.id, name: 'stray.txt' }), 'not_found');
    const traversal = expectMaestroError(
      () => m.invoke('getTaskAttachment', { taskId: task.id, name: '../transcript.jsonl' }),
      'invalid_input',
    );
    expect(traversal.issues?.[0]?.path).toEqual(['name']);
    const other = create();
    expectMaestroError(() => m.invoke('getTaskAttachment', { taskId: other.task.id, name: 'shot 1.png' }), 'not_found');
    fs.rmSync(path.join(m.ctx.dataDir, 'runs', task.id, 'attachments', 'notes.md'));
    const gone = expectMaestroError(
      () => m.invoke('getTaskAttachment', { taskId: task.id, name: 'notes.md' }),
      'not_found',
    );
    expect(gone.message).toContain('notes.md');
  });
});
