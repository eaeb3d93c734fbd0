// Starting a task from a message (issue 23 point 5): the empty view is the composer; its folder chip names the default
// folder and offers one used before, its piece chip lists each piece once in the UI's words, Ctrl+Enter (or Cmd+Enter)
// sends; the task gets the short title its profile's model made, live, and a double-click renames it — a rename the
// host never overwrites. In English and in Japanese for the chips' text.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, openUi, waitForJob } from './support/ui';

const INSTRUCTION = 'Walk me through the arc of the retry queue and explain\nwhy the third attempt waits so long.';

/** A task in another folder, made over HTTP with a title of its own (so no title is asked for). */
async function earlierTaskIn(host: HeadlessHost, folderName: string): Promise<string> {
  const folder = path.join(host.workspace, folderName);
  fs.mkdirSync(folder);
  const created = await host.call<{ task: { id: string } }>('POST', '/tasks', {
    instruction: 'Earlier work',
    title: 'Earlier',
    workspacePath: folder,
  });
  expect(created.status).toBe(201);
  return fs.realpathSync(folder);
}

test.describe('in English', () => {
  test.use({ locale: 'en-US' });

  test('P7.23 P7.14 type in the empty view, pick a folder and a piece, Ctrl+Enter sends; the generated title shows live and a rename stays', async ({
    page,
    llm,
    llmHost,
  }) => {
    // Two tasks and a model: more than the default minute on a busy machine.
    test.setTimeout(120_000);
    llm.push(complete('success', 'Earlier done.'));
    const older = await earlierTaskIn(llmHost, 'older');
    // The title arrives a little after the task, so the list shows it change in place.
    llm.pushOneShot({ text: '"Retry queue backoff."\nAnd a second line', delayMs: 300 });
    llm.push(complete('needs_user_input', 'Which queue do you mean?'));
    await openUi(page, llmHost);

    const empty = page.getByTestId('no-task-selected');
    const text = empty.getByTestId('field-instruction');
    // "New task" with the empty view on screen gives its composer the focus (no dialog over it).
    await page.getByTestId('new-task').click();
    await expect(text).toBeFocused();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await text.fill(INSTRUCTION);

    const folder = empty.getByTestId('field-folder');
    await expect(folder.locator('option').first()).toHaveText(`${path.basename(llmHost.workspace)} (default)`);
    await expect(folder.locator(`option[value="${older}"]`)).toHaveText('older');
    await folder.selectOption(older);

    const piece = empty.getByTestId('field-piece');
    // One entry per piece: no "Default piece" beside "Default".
    await expect(piece.locator('option')).toHaveText(['Ask me first', 'Just do it', 'Plan, build, review']);
    await expect(piece).toHaveValue('default');
    await piece.selectOption({ label: 'Ask me first' });
    await expect(empty.getByTestId('field-profile')).toHaveValue('env');

    await text.press('Control+Enter');
    const view = page.getByTestId('task-view');
    await expect(view).toBeVisible();
    await expect(page.getByTestId('create-task-form')).toHaveCount(0);
    const taskId = (await view.getAttribute('data-task-id')) as string;
    const row = page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`);
    await expect(row.getByTestId('task-title')).toHaveText('Retry queue backoff');
    await expect(page.getByTestId('task-view-title')).toHaveText('Retry queue backoff');

    const { body } = await llmHost.call<{ task: { pieceId: string; workspacePath: string } }>(
      'GET',
      `/tasks/${taskId}`,
    );
    expect(body.task).toMatchObject({ pieceId: 'ask-first', workspacePath: older });
    // One title request, for this task only, with the instruction as data.
    expect(llm.oneShotRequests).toHaveLength(1);
    expect(JSON.stringify(llm.oneShotRequests[0]?.body?.messages)).toContain('why the third attempt waits so long');

    await row.dblclick();
    const rename = page.getByTestId('task-rename-input');
    await expect(rename).toBeFocused();
    await rename.fill('My retry notes');
    await rename.press('Enter');
    await expect(row.getByTestId('task-title')).toHaveText('My retry notes');
    await expect(page.getByTestId('task-view-title')).toHaveText('My retry notes');
    const renamed = await llmHost.call<{ task: { title: string } }>('GET', `/tasks/${taskId}`);
    expect(renamed.body.task.title).toBe('My retry notes');
  });
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('P7.23 the chips speak Japanese; Cmd+Enter sends and a failed title request leaves the first line', async ({
    page,
    llm,
    llmHost,
  }) => {
    llm.push(complete('success', '完了しました。'));
    await openUi(page, llmHost);
    const empty = page.getByTestId('no-task-selected');
    await expect(empty.getByRole('heading', { level: 2 })).toHaveText('何に取り組みますか?');
    await expect(empty.locator('.chip-label')).toHaveText(['フォルダー', '進め方', 'モデル']);
    await expect(empty.getByTestId('field-folder').locator('option').first()).toHaveText(
      `${path.basename(llmHost.workspace)}（既定）`,
    );
    await expect(empty.getByTestId('field-piece').locator('option')).toHaveText([
      '先に確認する',
      'そのまま進める',
      '計画・実装・レビュー',
    ]);
    await expect(empty.getByTestId('create-submit')).toHaveText('送信');

    // Nothing scripted for the title: the server answers 500 and the task keeps its first line.
    const text = empty.getByTestId('field-instruction');
    await text.fill('キューの再試行を説明して\n詳しく');
    await text.press('Meta+Enter');
    await expect(page.getByTestId('task-view-title')).toHaveText('キューの再試行を説明して');
    const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;
    await waitForJob(llmHost, taskId, 'succeeded');
    expect(llm.oneShotRequests).toHaveLength(1);
    await expect(page.getByTestId('task-view-title')).toHaveText('キューの再試行を説明して');
  });
});
