// The live feed draws every row once and never one over another (issue 23, point 1): a task runs through approved
// commands, written files, a question with quick replies and a second job, and after each event no two rows' boxes
// intersect, no row key or step is on screen twice, and every button in view is the element at its own centre. While
// it runs, every animation frame is checked for a row key or step shown twice.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { ScriptedStep } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

/** Streamed slowly enough that the live rows are on screen while the checks run. */
const said = (text: string, call: { name: string; arguments: Record<string, unknown> }): ScriptedStep => ({
  text,
  textChunks: 12,
  chunkDelayMs: 25,
  toolCalls: [call],
});

/** What the feed looks like now: a list of what is wrong with it (empty when nothing is). */
async function feedFaults(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Two frames: what React and the virtualizer do for the last event is laid out and painted.
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    const faults: string[] = [];
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="feed-row"]')];
    const keys = new Set<string>();
    for (const row of rows) {
      const key = row.dataset.key ?? '';
      if (keys.has(key)) faults.push(`row key ${key} rendered twice`);
      keys.add(key);
    }
    // A step's first part carries its header: one per step.
    const heads = new Set<string>();
    for (const step of document.querySelectorAll<HTMLElement>('[data-testid="chat-step"]')) {
      if (!step.querySelector('.message-header')) continue;
      const id = step.dataset.stepId ?? '';
      if (heads.has(id)) faults.push(`step ${id} shown twice`);
      heads.add(id);
    }
    const boxes = rows.map((row) => ({ key: row.dataset.key, box: row.getBoundingClientRect() }));
    boxes.sort((a, b) => a.box.top - b.box.top);
    for (let i = 1; i < boxes.length; i++) {
      const above = boxes[i - 1] as (typeof boxes)[number];
      const below = boxes[i] as (typeof boxes)[number];
      if (above.box.bottom > below.box.top + 0.5) {
        faults.push(`row ${above.key} (bottom ${above.box.bottom}) overlaps row ${below.key} (top ${below.box.top})`);
      }
    }
    const feed = document.querySelector('[data-testid="chat-feed"]')?.getBoundingClientRect();
    const pane = document.querySelector('[data-testid="chat-pane"]');
    for (const button of pane?.querySelectorAll<HTMLElement>('button') ?? []) {
      const box = button.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      // In view: inside the window, and a button of the feed inside the feed's visible part (it scrolls).
      const area = button.closest('[data-testid="chat-feed"]') && feed ? feed : null;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
      if (area && (y < area.top || y > area.bottom || x < area.left || x > area.right)) continue;
      const hit = document.elementFromPoint(x, y);
      // A toast over a control is issue 23's point 6, checked by its own spec.
      if (hit?.closest('[data-testid="toasts"]')) continue;
      if (!hit || !button.contains(hit)) {
        const name = button.dataset.testid ?? button.textContent?.trim();
        const over = hit?.closest<HTMLElement>('[data-testid]')?.dataset.testid ?? hit?.tagName;
        faults.push(`button "${name}" is covered by ${over}`);
      }
    }
    return faults;
  });
}

/** Every frame until the test ends: a row key or a step shown twice is recorded, even for one frame. */
async function watchFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { feedFrameFaults: string[] }).feedFrameFaults = seen;
    const check = () => {
      const keys = new Set<string>();
      for (const row of document.querySelectorAll<HTMLElement>('[data-testid="feed-row"]')) {
        const key = row.dataset.key ?? '';
        if (keys.has(key) && seen.length < 20) seen.push(`row key ${key} rendered twice`);
        keys.add(key);
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

const frameFaults = (page: Page) =>
  page.evaluate(() => (window as unknown as { feedFrameFaults: string[] }).feedFrameFaults);

async function expectSound(page: Page, when: string): Promise<void> {
  // A row that grew is measured in the frame after it changed, and the rows below move then: what must hold is that
  // they settle apart at once (the overlaps this spec was written for stayed until a reload). Keys shown twice are
  // checked in every frame (watchFrames).
  await expect.poll(() => feedFaults(page), { message: `after ${when}`, timeout: 1_000 }).toEqual([]);
  expect(await frameFaults(page), `until ${when}`).toEqual([]);
}

/** Each sentence the model streamed is on screen once. */
async function expectOnce(page: Page, sentences: readonly string[]): Promise<void> {
  const text = (await page.getByTestId('chat-feed').textContent()) ?? '';
  for (const sentence of sentences) expect(text.split(sentence).length - 1, sentence).toBe(1);
}

test('P7.01 P7.03 P7.16 P7.15 P7.02 rows after approvals, written files and a question with quick replies never overlap nor repeat', async ({
  page,
  llm,
  llmHost,
}) => {
  test.setTimeout(180_000);
  fs.writeFileSync(path.join(llmHost.workspace, 'range.ts'), 'export const range = (n: number) => n;\n');
  const sentences = [
    'First I look at what the project has.',
    'Now I write the range module with its checks.',
    'Then I run the checks once more to be sure.',
    'The edit is in; one more look at the result.',
  ];
  llm.push(
    said(sentences[0] as string, { name: 'run_command', arguments: { command: 'echo looked' } }),
    said(sentences[1] as string, {
      name: 'write_file',
      arguments: { path: 'range-check.ts', content: 'export const check = (n: number) => n >= 0;\n'.repeat(6) },
    }),
    said(sentences[2] as string, { name: 'run_command', arguments: { command: 'echo checked' } }),
    {
      toolCalls: [
        {
          name: 'complete',
          arguments: {
            status: 'needs_user_input',
            message: 'How should bad input fail?',
            choices: ['Throw a RangeError', 'Return null'],
          },
        },
      ],
    },
    said(sentences[3] as string, {
      name: 'edit_file',
      arguments: {
        path: 'range.ts',
        old_string: '=> n;',
        new_string: '=> { if (n < 0) throw new RangeError(); return n; };',
      },
    }),
    complete('success', 'Bad input throws a RangeError now.'),
  );
  await openUi(page, llmHost);
  await watchFrames(page);
  await createInUi(page, { instruction: 'Make range() reject bad input.', title: 'Range' });

  const card = page.getByTestId('tool-request');
  const approveEach = async (count: number) => {
    for (let i = 0; i < count; i++) {
      await expect(card).toHaveCount(1, { timeout: 30_000 });
      await expectSound(page, `card ${i + 1}`);
      await card.getByTestId('approve-once').click();
      await expect(card).toHaveCount(0);
      await expectSound(page, `approval ${i + 1}`);
    }
  };
  // The commands ask; the write may (as the Tool Policy says): each card that comes is approved.
  await approveEach(2);
  const question = page.locator('[data-testid="chat-message"][data-kind="question"]');
  while (!(await question.isVisible())) {
    if (await card.isVisible()) await approveEach(1);
    else await page.waitForTimeout(100);
  }
  await expect(page.getByTestId('files-changed')).toBeVisible();
  await expect(question.getByTestId('quick-reply')).toHaveText(['Throw a RangeError', 'Return null']);
  await expectSound(page, 'the question');
  await expectOnce(page, sentences.slice(0, 3));

  await question.getByTestId('quick-reply').filter({ hasText: 'Throw a RangeError' }).click();
  while (!(await page.locator('[data-testid="chat-message"][data-kind="result"]').isVisible())) {
    if (await card.isVisible()) await approveEach(1);
    else await page.waitForTimeout(100);
  }
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('files-changed')).toHaveCount(2);
  await expectSound(page, 'the result');
  await expectOnce(page, sentences);
  llm.expectEmpty();
});
