// Every job state as the A2A state a caller sees: queued/running → submitted/working, a person's wait input-required,
// an MCP token's wait auth-required, the three ends completed, failed, canceled.
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, WAIT_REASONS } from '../../src-shared/entities';
import { a2aState, isFinal } from './task-view';

describe('a2aState', () => {
  it('P10.02 maps every job status and wait reason', () => {
    const seen = JOB_STATUSES.flatMap((status) =>
      (status === 'waiting_human' ? WAIT_REASONS : [null]).map((waitReason) => [
        `${status}${waitReason ? `/${waitReason}` : ''}`,
        TaskState[a2aState({ status, waitReason })],
      ]),
    );
    expect(Object.fromEntries(seen)).toEqual({
      queued: 'TASK_STATE_SUBMITTED',
      running: 'TASK_STATE_WORKING',
      retry: 'TASK_STATE_WORKING',
      waiting_subtasks: 'TASK_STATE_WORKING',
      'waiting_human/ask': 'TASK_STATE_INPUT_REQUIRED',
      'waiting_human/tool_request': 'TASK_STATE_INPUT_REQUIRED',
      'waiting_human/package_request': 'TASK_STATE_INPUT_REQUIRED',
      'waiting_human/browser': 'TASK_STATE_INPUT_REQUIRED',
      'waiting_human/mcp_auth_required': 'TASK_STATE_AUTH_REQUIRED',
      'waiting_human/settings': 'TASK_STATE_INPUT_REQUIRED',
      succeeded: 'TASK_STATE_COMPLETED',
      failed: 'TASK_STATE_FAILED',
      cancelled: 'TASK_STATE_CANCELED',
    });
    expect(JOB_STATUSES.filter((status) => isFinal(a2aState({ status, waitReason: null })))).toEqual([
      'succeeded',
      'failed',
      'cancelled',
    ]);
  });
});
