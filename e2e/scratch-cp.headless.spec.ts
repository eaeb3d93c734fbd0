// SCRATCH (not committed): the checkpoint UI against routes faked in the page, until the service lands.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

test('scratch: checkpoint UI with faked routes', async ({ page, llm, llmHost }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const workspace = fs.realpathSync(llmHost.workspace);
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'one\n');
  llm.push({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'two\n' } }] }, complete('success', 'First done.'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'FIRST', title: 'Undo me' });
  await expect(page.locator('[data-kind="result"]', { hasText: 'First done.' })).toBeVisible({ timeout: 20000 });
  llm.push({ toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'new\n' } }] }, complete('success', 'Second done.'));
  await page.getByTestId('composer-input').fill('SECOND');
  await page.getByTestId('composer-send').click();
  await expect(page.locator('[data-kind="result"]', { hasText: 'Second done.' })).toBeVisible({ timeout: 20000 });
  const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) ?? '';
  const usage = await llmHost.call<{ invokes: { seq: number; kind: string; jobId: string }[] }>('GET', `/tasks/${taskId}/usage`);
  const recent = await llmHost.call<{ steps: { toolCalls: { id: string; name: string }[]; jobId: string }[] }>('GET', `/tasks/${taskId}/recent`);
  const sends = usage.body.invokes.filter((i) => i.kind === 'UserSend');
  const calls = recent.body.steps.flatMap((s) => s.toolCalls.map((c) => ({ ...c, jobId: s.jobId })));
  const cp = (id: string, patch: Record<string, unknown>) => ({ id, taskId, jobId: 'j', send: 1, invokeSeq: 0, kind: 'send', createdAt: new Date().toISOString(), files: [], skipped: [], commit: null, callId: null, ...patch });
  let rewinds: unknown[] = [];
  const list = () => ({
    checkpoints: [
      cp('cp1', { send: 1, invokeSeq: sends[0]?.seq, jobId: sends[0]?.jobId }),
      ...calls.map((c, i) => cp(`st${i}`, { kind: 'step', callId: c.id, jobId: c.jobId, files: i === 1 ? [{ path: 'a.txt', change: 'modified' }] : [] })),
      cp('cp2', { send: 2, invokeSeq: sends[1]?.seq, jobId: sends[1]?.jobId, files: [{ path: 'a.txt', change: 'modified' }, { path: 'old.txt', change: 'renamed', from: 'x.txt' }], skipped: [{ path: 'big.bin', reason: 'too_big' }], commit: 'abc1234' }),
    ],
    rewinds,
    state: { on: false, store: null, note: 'git is not installed' },
  });
  await page.route('**/api/local/tasks/*/checkpoints', (r) => r.fulfill({ json: list() }));
  const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n';
  let files = [{ path: 'a.txt', change: 'modified', diff, binary: false, added: 1, removed: 1 }, { path: 'c.txt', change: 'added', diff: '--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@\n+new\n', binary: false, added: 1, removed: 0 }];
  await page.route('**/api/local/tasks/*/changes', (r) => r.fulfill({ json: { files, state: { on: true, store: 'plain', note: null } } }));
  await page.route('**/api/local/tasks/*/changes/revert', (r) => { files = files.slice(1); return r.fulfill({ json: { restored: ['a.txt'], removed: [], undoCheckpointId: 'u1' } }); });
  const task = (await llmHost.call<{ task: unknown }>('GET', `/tasks/${taskId}`)).body.task;
  await page.route('**/api/local/tasks/*/rewind', (r) => {
    rewinds = [{ id: 'rw', send: 2, fromSeq: sends[1]?.seq, untilSeq: 1e9, createdAt: '', undone: false }];
    return r.fulfill({ json: { task, restored: ['a.txt'], removed: ['c.txt'], undoCheckpointId: 'u2' } });
  });
  await page.reload();
  await expect(page.getByTestId('checkpoints-off')).toBeVisible();
  await page.screenshot({ path: '/tmp/x/cp1.png' });
  const menu = page.locator('[data-testid="send-menu"][data-send="2"]');
  await menu.click();
  await page.screenshot({ path: '/tmp/x/cp2.png' });
  await page.getByTestId('send-menu-both').click();
  await page.screenshot({ path: '/tmp/x/cp3.png' });
  await page.getByTestId('rewind-dialog-confirm').click();
  await expect(page.getByTestId('restore-notice')).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/x/cp4.png' });
  await page.getByTestId('task-changes-open').click();
  await page.locator('[data-testid="task-change"][data-path="a.txt"] [data-testid="task-change-toggle"]').click();
  await page.locator('[data-testid="task-change"][data-path="a.txt"] [data-testid="task-change-revert"]').click();
  await page.screenshot({ path: '/tmp/x/cp5.png' });
  await page.getByTestId('task-change-revert-confirm').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/x/cp6.png' });
  await page.keyboard.press('Escape');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('checkpoint-settings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/x/cp7.png' });
});
