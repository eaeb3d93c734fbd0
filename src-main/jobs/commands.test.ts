// Each job command as a table over every state of the state machine (real SQLite files): the state it leaves a job
// in where it applies, and everywhere else a refusal with its code, the command named, and not a row written.
import { describe, expect, it } from 'vitest';
import { JOB_STATES, type JobState, jobIn, RUN, snapshot } from '../../test-support/job-states';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { decline, routed } from './claim';
import { openFollowUp } from './follow-up';
import { cancelJobTree } from './lifecycle';
import { answerAsk, commentForNextRun, interject } from './person-comments';
import { JobCommandError, type RefusalCode } from './refusal';
import { retryNow } from './retry-now';
import { fail, park, retryLater, succeed, waitForSubtasks } from './run-outcomes';
import { wakeParked } from './wake';

interface Command {
  name: string;
  /** What the title says besides the name: the cause, the spec paths it exercises. */
  about: string;
  refusal: RefusalCode;
  run: (store: Store, job: JobRecord) => JobRecord;
  /** The states it applies to, with what the job it returns looks like after. */
  applies: Partial<Record<JobState, Partial<JobRecord>>>;
}

const queuedAgain = { status: 'queued', waitReason: null, resumeMovement: 'work' } as const;
const unchanged = (state: JobState): Partial<JobRecord> => {
  const [status, waitReason] = state.split(':');
  return { status: status as JobRecord['status'], waitReason: (waitReason ?? null) as JobRecord['waitReason'] };
};
const follow = { taskId: '', pieceId: 'default', profile: null };
const failure = { error: 'boom', errorCode: null, resumeMovement: 'work' };

const COMMANDS: Command[] = [
  {
    name: 'wakeParked',
    about: '(decided) P7.03 P7.08 P9.05',
    refusal: 'job_not_waiting',
    run: (store, job) => wakeParked(store, job.id, 'decided'),
    // The decision resumes inside the run's Invoke (P9.05).
    applies: {
      'waiting_human:tool_request': { ...queuedAgain, pendingInvoke: null },
      'waiting_human:package_request': { ...queuedAgain, pendingInvoke: null },
    },
  },
  {
    name: 'wakeParked',
    about: '(browser_replied) P1.12',
    refusal: 'job_not_waiting',
    run: (store, job) => wakeParked(store, job.id, 'browser_replied'),
    applies: { 'waiting_human:browser': { ...queuedAgain, pendingInvoke: null } },
  },
  {
    name: 'wakeParked',
    about: '(token_saved) P2.16',
    refusal: 'job_not_waiting',
    run: (store, job) => wakeParked(store, job.id, 'token_saved'),
    // Parked before its engine ran: its Invoke is still to open (P2.16).
    applies: { 'waiting_human:mcp_auth_required': { ...queuedAgain, pendingInvoke: 'UserSend' } },
  },
  {
    name: 'wakeParked',
    about: '(settings_reviewed)',
    refusal: 'job_not_waiting',
    run: (store, job) => wakeParked(store, job.id, 'settings_reviewed'),
    applies: { 'waiting_human:settings': { ...queuedAgain, pendingInvoke: 'UserSend' } },
  },
  {
    name: 'interject',
    about: 'P1.05 P1.06 P1.12 P1.13',
    refusal: 'job_not_waiting',
    run: (store, job) => interject(store, job.id, 'also this').job,
    applies: {
      running: unchanged('running'),
      waiting_subtasks: unchanged('waiting_subtasks'),
      'waiting_human:browser': queuedAgain,
      'waiting_human:mcp_auth_required': unchanged('waiting_human:mcp_auth_required'),
      'waiting_human:settings': unchanged('waiting_human:settings'),
    },
  },
  {
    name: 'commentForNextRun',
    about: 'P1.08 P1.09',
    refusal: 'job_not_waiting',
    run: (store, job) => commentForNextRun(store, job.id, 'read this first').job,
    applies: { queued: { status: 'queued', attempt: 0 }, retry: { status: 'retry', attempt: 1 } },
  },
  {
    name: 'answerAsk',
    about: 'P1.10',
    refusal: 'job_not_waiting',
    run: (store, job) => answerAsk(store, job.id, { body: 'the blue one', next: follow }).job,
    // The follow-up: the asking movement and its ASK count go on.
    applies: {
      'waiting_human:ask': { status: 'queued', resumeMovement: 'work', askCount: 1, pendingInvoke: 'UserSend' },
    },
  },
  {
    name: 'openFollowUp',
    about: 'P1.11 P1.18',
    refusal: 'job_not_terminal',
    run: (store, job) =>
      openFollowUp(
        store,
        job,
        { ...follow, taskId: job.taskId, continuedFromJobId: job.id },
        {
          author: 'user',
          kind: 'handoff',
          body: 'go on',
        },
      ).job,
    applies: Object.fromEntries(
      (['succeeded', 'failed', 'cancelled'] as const).map((s) => [s, { status: 'queued', pendingInvoke: 'UserSend' }]),
    ),
  },
  {
    name: 'retryNow',
    about: '(retry-now)',
    refusal: 'conflict',
    run: (store, job) => retryNow(store, job.id),
    applies: { retry: { status: 'retry', attempt: 1 } },
  },
  ...(
    [
      ['succeed', (s, j) => succeed(s, j.id, RUN, 'ok'), { status: 'succeeded', result: 'ok', resumeMovement: null }],
      [
        'park P2.22',
        (s, j) => park(s, j.id, RUN, { reason: 'ask', movement: 'review', question: 'why?' }),
        { status: 'waiting_human', waitReason: 'ask', resumeMovement: 'review', askCount: 1, pendingInvoke: null },
      ],
      [
        'park (approval) P2.23 P2.24',
        (s, j) =>
          park(s, j.id, RUN, {
            reason: 'approval',
            movement: 'review',
            toolRequests: [],
            packageRequests: [{ callId: 'c', manager: 'pip', name: 'requests', version: null, reason: 'http' }],
          }),
        { status: 'waiting_human', waitReason: 'package_request', resumeMovement: 'review' },
      ],
      [
        'park (browser) P2.25',
        (s, j) => park(s, j.id, RUN, { reason: 'browser', movement: 'review', message: 'log in, please' }),
        { status: 'waiting_human', waitReason: 'browser', resumeMovement: 'review' },
      ],
      [
        'waitForSubtasks',
        (s, j) => waitForSubtasks(s, j.id, RUN, 'fanout'),
        // No child open: nothing to wait for, it goes on at once with a Notify.
        { status: 'queued', resumeMovement: 'fanout', pendingInvoke: 'Notify' },
      ],
      [
        'retryLater',
        (s, j) => retryLater(s, j.id, RUN, { ...failure, nextRetryAt: Date.now() + 1000, counted: false }),
        // Not the job's fault: the attempt its claim counted is given back.
        { status: 'retry', attempt: 0, workerId: null, error: 'boom' },
      ],
      ['fail', (s, j) => fail(s, j.id, RUN, failure), { status: 'failed', error: 'boom' }],
      ['decline P2.13', (s, j) => decline(s, j.id, RUN.workerId), { status: 'queued', attempt: 0, workerId: null }],
      [
        'routed',
        (s, j) => routed(s, j.id, RUN.workerId, { pieceId: 'chat', warning: null }),
        { status: 'running', pieceId: 'chat' },
      ],
    ] as [string, Command['run'], Partial<JobRecord>][]
  ).map(([title, run, after]): Command => {
    const [name, about] = title.split(/ (.*)/) as [string, string | undefined];
    return { name, about: about ?? '', refusal: 'conflict', run, applies: { running: after } };
  }),
];

const cases = COMMANDS.flatMap((command) =>
  JOB_STATES.map((state) => ({ label: `${command.name} ${command.about}`.trim(), command, state })),
);

describe('job commands: state before → state after, and refusals (issue 24)', () => {
  it.each(cases.filter((c) => c.state in c.command.applies))('$label on $state', ({ command, state }) => {
    const { store, job } = jobIn(state);
    const after = command.run(store, job);
    expect(after).toMatchObject(command.applies[state] as object);
    expect(store.jobs.get(after.id)).toEqual(after);
  });

  it.each(cases.filter((c) => !(c.state in c.command.applies)))(
    '$label on $state is refused with its code; nothing is written',
    ({ command, state }) => {
      const { store, job } = jobIn(state);
      const before = snapshot(store);
      let refused: unknown;
      try {
        command.run(store, job);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(JobCommandError);
      expect(refused).toMatchObject({ name: 'JobCommandError', command: command.name, code: command.refusal });
      expect(snapshot(store)).toEqual(before);
    },
  );

  it('P2.38 a run outcome for a job cancelled meanwhile, or from a worker that does not hold it, is refused and writes nothing', () => {
    const { store, job } = jobIn('running');
    const other = { workerId: 'w2', engineRan: true };
    const outcomes = [
      () => succeed(store, job.id, other, 'late'),
      () => fail(store, job.id, other, failure),
      () => decline(store, job.id, 'w2'),
      () => succeed(store, job.id, RUN, 'late'),
    ];
    const before = snapshot(store);
    for (const outcome of outcomes.slice(0, 3)) expect(outcome).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(snapshot(store)).toEqual(before);
    cancelJobTree(store, job);
    const cancelled = snapshot(store);
    expect(outcomes[3]).toThrow(expect.objectContaining({ code: 'conflict', command: 'succeed' }));
    expect(snapshot(store)).toEqual(cancelled);
    expect(store.comments.listForJob(job.id).map((c) => c.kind)).not.toContain('result');
  });
});
