// The new-task composer in the browser against a headless host: attachments picked, dropped and pasted show as chips
// (a thumbnail for an image), a file over the limit is refused with its name and creates nothing, the created task's
// model reads the text attachment; a failed create keeps everything typed and attached; the folder chip offers a
// folder used before, and over HTTP "Another folder…" asks for a path (there is no OS picker).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ATTACHMENT_MAX_BYTES } from '../src-shared/attachments';
import { expect, test } from './support/fixtures';
import { complete, messagesOf, openUi, renameOpenTask, textOf, typeFolder, waitForJob } from './support/ui';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const chips = (page: Page) => page.getByTestId('attachment-chip');
const chip = (page: Page, name: string) => page.locator(`[data-testid="attachment-chip"][data-name="${name}"]`);

async function openDialog(page: Page, instruction: string) {
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill(instruction);
}

test('P10.09 P7.23 a text file and an image are attached, a too-large file is refused and creates nothing, and the model reads the text', async ({
  page,
  llm,
  llmHost,
}) => {
  let seen = '';
  llm.push((request) => {
    seen = messagesOf(request).map(textOf).join('\n');
    return complete('success', 'Read the notes.');
  });
  await openUi(page, llmHost);
  await openDialog(page, 'Summarise the attached notes.');
  await expect(page.getByTestId('choose-folder')).toHaveCount(0);

  const input = page.getByTestId('field-attachments');
  await input.setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The secret word is PELICAN.\n') },
    { name: 'pixel.png', mimeType: 'image/png', buffer: PNG },
  ]);
  await expect(chips(page)).toHaveCount(2);
  await expect(chip(page, 'notes.txt')).toHaveAttribute('data-media-type', 'text/plain');
  await expect(chip(page, 'notes.txt')).toContainText('28 B');
  await expect(chip(page, 'pixel.png').getByTestId('attachment-thumb')).toHaveAttribute(
    'src',
    `data:image/png;base64,${PNG.toString('base64')}`,
  );
  await expect(page.getByTestId('attachment-total')).toContainText('2 files');

  // One byte over the limit: refused here, with the file's name and the reason; the others stay.
  await input.setInputFiles({
    name: 'huge.log',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0x61),
  });
  const error = page.getByTestId('attachment-error');
  await expect(error).toHaveAttribute('data-name', 'huge.log');
  await expect(error).toHaveText('“huge.log” is 10.1 MiB: each file may be at most 10 MiB.');
  await expect(chips(page)).toHaveCount(2);
  expect((await llmHost.call<{ tasks: unknown[] }>('GET', '/tasks')).body.tasks).toEqual([]);

  // A binary file with no allowed type is refused too; a removed chip goes.
  await input.setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from([0, 1]) });
  await expect(error).toHaveText('“tool.exe” is neither a text file nor an image (PNG, JPEG, GIF, WebP).');
  await input.setInputFiles({ name: 'extra.md', mimeType: 'text/markdown', buffer: Buffer.from('# extra') });
  await expect(chips(page)).toHaveCount(3);
  await expect(error).toHaveCount(0);
  await chip(page, 'extra.md').getByTestId('attachment-remove').click();
  await expect(chips(page)).toHaveCount(2);

  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, 'Attachments');
  const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;
  await waitForJob(llmHost, taskId, 'succeeded');

  expect(seen).toContain('## notes.txt');
  expect(seen).toContain('The secret word is PELICAN.');
  expect(seen).toContain('## pixel.png');
  expect(seen).not.toContain('extra.md');
  const stored = path.join(llmHost.dataDir, 'runs', taskId, 'attachments');
  expect(fs.readdirSync(stored).sort()).toEqual(['notes.txt', 'pixel.png']);
  expect(fs.readFileSync(path.join(stored, 'pixel.png')).equals(PNG)).toBe(true);
  llm.expectEmpty();
});

test('P7.23 dropped and pasted files are attached, and a failed create keeps everything typed and attached', async ({
  page,
  host,
}) => {
  await openUi(page, host);
  await openDialog(page, 'Look at these.');
  const form = page.getByTestId('create-task-form');

  // Drop: the form shows it is a drop target while files hover, then attaches them.
  await form.evaluate((el) => {
    const files = new DataTransfer();
    files.items.add(new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
    files.items.add(new File(['export const x = 1;\n'], 'x.ts', { type: 'video/mp2t' }));
    el.dispatchEvent(new DragEvent('dragover', { dataTransfer: files, bubbles: true, cancelable: true }));
  });
  await expect(form).toHaveAttribute('data-dragging', 'true');
  await form.evaluate((el) => {
    const files = new DataTransfer();
    files.items.add(new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
    files.items.add(new File(['export const x = 1;\n'], 'x.ts', { type: 'video/mp2t' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
  });
  await expect(form).not.toHaveAttribute('data-dragging', 'true');
  await expect(chip(page, 'table.csv')).toHaveAttribute('data-media-type', 'text/csv');
  // The browser calls a .ts file a video; its content is text, so it goes as text.
  await expect(chip(page, 'x.ts')).toHaveAttribute('data-media-type', 'text/plain');

  // Paste: an image from the clipboard, twice; the clipboard names both alike, so the second is numbered.
  const pasteImage = () =>
    page.getByTestId('field-instruction').evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, PNG.toString('base64'));
  await pasteImage();
  await pasteImage();
  await expect(chip(page, 'image.png').getByTestId('attachment-thumb')).toBeVisible();
  await expect(chip(page, 'image (2).png').getByTestId('attachment-thumb')).toBeVisible();
  await expect(page.getByTestId('field-instruction')).toHaveValue('Look at these.');

  // The same file picked again is refused by name, not silently doubled.
  await page
    .getByTestId('field-attachments')
    .setInputFiles({ name: 'TABLE.csv', mimeType: 'text/csv', buffer: Buffer.from('x') });
  await expect(page.getByTestId('attachment-error')).toHaveText('A file named “TABLE.csv” is already attached.');
  await expect(chips(page)).toHaveCount(4);

  // The server refuses the folder: the error shows on its field and nothing typed or attached is lost.
  await typeFolder(page, path.join(host.workspace, 'missing'));
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('field-error-workspacePath')).toContainText('does not exist');
  await expect(page.getByTestId('field-instruction')).toHaveValue('Look at these.');
  await expect(page.getByTestId('field-workspace')).toHaveValue(path.join(host.workspace, 'missing'));
  await expect(chips(page)).toHaveCount(4);
  expect((await host.call<{ tasks: unknown[] }>('GET', '/tasks')).body.tasks).toEqual([]);

  // Back to the default folder, it goes through with all four files.
  await page.getByTestId('field-folder').selectOption('');
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;
  const stored = path.join(host.dataDir, 'runs', taskId, 'attachments');
  expect(fs.readdirSync(stored).sort()).toEqual(['image (2).png', 'image.png', 'table.csv', 'x.ts']);
});

test('P10.07 the folder chip names the default folder and offers the folders used before, newest first', async ({
  page,
  host,
}) => {
  const folder = (name: string) => {
    fs.mkdirSync(path.join(host.workspace, name));
    return fs.realpathSync(path.join(host.workspace, name));
  };
  const older = folder('older');
  const newer = folder('newer');
  for (const folder of [older, newer]) {
    const created = await host.call('POST', '/tasks', { instruction: `work in ${folder}`, workspacePath: folder });
    expect(created.status).toBe(201);
  }
  await openUi(page, host);
  await openDialog(page, 'Again in the older folder.');

  const chip = page.getByTestId('field-folder');
  await expect(chip.locator('option').first()).toHaveText(`${path.basename(host.workspace)} (default)`);
  const offered = await chip
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
  expect(offered).toEqual([newer, older, '(other)']);
  await expect(chip.locator(`option[value="${older}"]`)).toHaveText('older');

  await chip.selectOption(older);
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;
  const { body } = await host.call<{ task: { workspacePath: string } }>('GET', `/tasks/${taskId}`);
  expect(body.task.workspacePath).toBe(older);

  // Used again, the older folder is now the newest.
  await page.getByTestId('new-task').click();
  await expect(page.getByTestId('field-folder').locator('option').nth(1)).toHaveAttribute('value', older);
});
