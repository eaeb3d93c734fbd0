// Entities for the renderer's tests: every field a real one has, with the ones a test cares about given.
import type { ChatStep, Comment, Job, Task } from '../../src-shared/entities';
import type { StreamTurn } from './store/job-stream';

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

/** Second `s` of 2026-01-01, as an ISO time: tests order items by it. */
export const atSecond = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

/** A comment of task `t`, job `j1`, at second `s`: a person's instruction unless `patch` says otherwise. */
export const commentFixture = (id: string, s: number, patch: Partial<Comment> = {}): Comment => ({
  id,
  taskId: 't',
  jobId: 'j1',
  author: 'user',
  kind: 'instruction',
  body: id,
  createdAt: atSecond(s),
  ...patch,
});

/** A recorded step of task `t`, job `j1`, at second `s`, in movement `work`, with no text or calls unless given. */
export const stepFixture = (seq: number, s: number, patch: Partial<ChatStep> = {}): ChatStep => ({
  id: `step:${seq}`,
  seq,
  taskId: 't',
  jobId: 'j1',
  createdAt: atSecond(s),
  movement: 'work',
  depth: 0,
  text: '',
  reasoning: '',
  toolCalls: [],
  error: null,
  usage: { llmCalls: 1, promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
  ...patch,
});

/** A turn of the live stream, not recorded yet, with nothing in it unless given. */
export const streamTurnFixture = (patch: Partial<StreamTurn> = {}): StreamTurn => ({
  id: `t${patch.turnCount ?? 1}`,
  turnCount: 1,
  movement: null,
  text: '',
  reasoning: '',
  toolCalls: [],
  llmCalls: 1,
  discarded: 0,
  stepId: null,
  ...patch,
});
