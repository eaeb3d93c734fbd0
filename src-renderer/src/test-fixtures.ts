// Entities for the renderer's tests: every field a real one has, with the ones a test cares about given.
import type { Job, Task } from '../../src-shared/entities';

export const taskFixture = (patch: Partial<Task> & Pick<Task, 'id'>): Task => ({
  title: patch.id,
  instruction: '',
  pieceId: 'default',
  workspacePath: '/w',
  profile: null,
  parentTaskId: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  archivedAt: null,
  status: 'queued',
  ...patch,
});

export const jobFixture = (patch: Partial<Job> & Pick<Job, 'id' | 'taskId' | 'status'>): Job => ({
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  waitReason: null,
  pieceId: 'default',
  profile: null,
  resumeMovement: null,
  askCount: 0,
  attempt: 0,
  nextRetryAt: null,
  continuedFromJobId: null,
  parentJobId: null,
  workerId: null,
  heartbeatAt: null,
  error: null,
  result: null,
  ...patch,
});
