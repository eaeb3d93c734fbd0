// A reply past its LLM profile's limit, as the person sees it (issue 21): the job fails once, not retried, and the
// chat says in plain words that a limit of the profile stopped it, the detail (which limit, its value, where to change
// it) folded under it.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { createInUi, openUi } from './support/ui';

const jobStatus = (page: Page) => page.getByTestId('job-status');

test('P4.23 a 2 MB tool-call argument in one event: the job fails at maxToolArgumentBytes, the chat names the limit, one request', async ({
  page,
  llm,
  llmHost,
}) => {
  const call = { index: 0, id: 'call_big', type: 'function', function: { name: 'write_file', arguments: '' } };
  const huge = { ...call, function: { arguments: `{"path":"big.txt","content":"${'A'.repeat(2_000_000)}"}` } };
  llm.push({
    raw: {
      sse: [
        { choices: [{ index: 0, delta: { tool_calls: [call] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [huge] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        'data: [DONE]',
      ],
    },
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a big file', title: 'Too big' });
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  const error = page.getByTestId('error-comment');
  await expect(error).toHaveCount(1);
  await expect(error).toHaveAttribute('data-code', 'llm_limit');
  await expect(error.getByTestId('job-error-headline')).toHaveText(
    'The model’s reply went past a limit of its LLM profile (size or time), so the run stopped. Details say which limit and where to change it.',
  );
  await error.locator('summary').click();
  const detail = error.getByTestId('job-error-detail');
  await expect(detail).toContainText('maxToolArgumentBytes = 1048576');
  await expect(detail).toContainText('MAESTRO_LLM_MAX_TOOL_ARGUMENT_BYTES');
  // Nothing of the argument reached the page, and the model was asked once.
  await expect(page.getByText('AAAAAAAAAAAAAAAAAAAA')).toHaveCount(0);
  expect(llm.requests).toHaveLength(1);
});
