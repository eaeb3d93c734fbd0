// Helpers the browser specs share: open the UI of a host, create a task through the new-task composer and rename it as
// a person does, read the model's requests.
import { expect, type Page } from '@playwright/test';
import type { RecordedRequest, ScriptedStep } from '../../test-support/scripted-llm-server';
import type { HeadlessHost } from './headless-host';

/** The folder chip's "Another folder…" entry (NewTaskChips.tsx's OTHER_FOLDER). */
const OTHER_FOLDER = '(other)';

export async function openUi(page: Page, host: HeadlessHost): Promise<void> {
  await page.goto(host.pageUrl);
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
}

/** Starts a task from the composer ("New task"), then gives it `title` in the task list. */
export async function createInUi(page: Page, fields: { instruction: string; title: string; pieceId?: string }) {
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill(fields.instruction);
  const pieceId = fields.pieceId ?? 'default';
  await expect(page.getByTestId('field-piece').locator(`option[value="${pieceId}"]`)).toHaveCount(1);
  await page.getByTestId('field-piece').selectOption(pieceId);
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, fields.title);
}

/** Renames the open task with a double-click on its row in the task list, as a person does. */
export async function renameOpenTask(page: Page, title: string) {
  await page.locator('[data-testid="task-item"][aria-current="true"]').dblclick();
  const input = page.getByTestId('task-rename-input');
  await input.fill(title);
  await input.press('Enter');
  await expect(page.getByTestId('task-view-title')).toHaveText(title);
}

/** Types a folder's path in the composer's folder chip ("Another folder…"). */
export async function typeFolder(page: Page, folder: string) {
  await page.getByTestId('field-folder').selectOption(OTHER_FOLDER);
  await page.getByTestId('field-workspace').fill(folder);
}

interface ChatMessage {
  role: string;
  content?: unknown;
}

/** The messages of a chat completion request the model received. */
export function messagesOf(request: RecordedRequest): ChatMessage[] {
  return (request.body?.messages ?? []) as ChatMessage[];
}

/** A message's text, whether its content is a string or a list of parts. */
export function textOf(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part?.text === 'string' ? (part.text as string) : '')).join('');
  }
  return '';
}

/** A reply that calls `complete`. */
/** A model reply that asks to run `command`. */
export const runCommand = (command: string): ScriptedStep => ({
  toolCalls: [{ name: 'run_command', arguments: { command } }],
});

/** The last message the model received, when it is a tool result; else a note of what it was. */
export function lastToolResult(request: RecordedRequest): string {
  const last = messagesOf(request).at(-1);
  return last?.role === 'tool' ? textOf(last) : `(the last message was from ${last?.role ?? 'nobody'})`;
}

export function complete(status: 'success' | 'needs_user_input' | 'failure', message: string): ScriptedStep {
  return { toolCalls: [{ name: 'complete', arguments: { status, message } }] };
}

/** Polls the bridge until the task's latest job has `status` (for checks the UI cannot make). */
export async function waitForJob(host: HeadlessHost, taskId: string, status: string, timeoutMs = 20_000) {
  await expect
    .poll(
      async () => {
        const { body } = await host.call<{ jobs: { status: string }[] }>('GET', `/tasks/${taskId}`);
        return body.jobs.at(-1)?.status;
      },
      { timeout: timeoutMs },
    )
    .toBe(status);
}

/**
 * Accepts every unaccepted settings file of the host's workspace, as a person does on its card (settings the agent can
 * write apply only in an accepted version): for tests that write `.maestro/*` themselves before a task starts.
 */
export async function acceptWorkspaceSettings(host: HeadlessHost): Promise<void> {
  const where = `/settings-changes/${encodeURIComponent(host.workspace)}`;
  const { body } = await host.call<{ changes: { file: string; currentSha256: string }[] }>('GET', where);
  for (const { file, currentSha256 } of body.changes) {
    const accepted = await host.call('POST', `${where}/accept`, { file, currentSha256 });
    if (accepted.status !== 200)
      throw new Error(`accepting ${file}: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  }
}
