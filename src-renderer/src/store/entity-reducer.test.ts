// The entity reducer against a recorded run (entity-stream.fixture.json: the headless host and the scripted model, a
// command approved from its request, a result, a follow-up answered): the rows a window shows — the task list, the
// jobs, the chat, the request cards, the activity timeline — are the same whether it folded the live events, the
// pages it loads, or any mix of the two (a page in the middle, events sent again after a reconnect).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../../src-shared/contract';
import { MaestroEvent } from '../../../src-shared/events';
import { activityRows } from './activity-rows';
import { chatItems } from './chat-items';
import { type Entities, type EntityInput, NO_ENTITIES } from './entities';
import { reduceEntities } from './entity-reducer';
import { selectActivity, selectDetail, selectLatestJobs, selectTasks } from './entity-selectors';
import RECORDED from './entity-stream.fixture.json';

const Pages = z.object({
  listTasks: contract.listTasks.output,
  getTaskRecent: contract.getTaskRecent.output,
  listToolRequests: contract.listToolRequests.output,
  listPackageRequests: contract.listPackageRequests.output,
  listTaskEvents: contract.listTaskEvents.output,
});
type Pages = z.infer<typeof Pages>;
const Recording = z.object({
  taskId: z.string(),
  events: z.array(MaestroEvent),
  /** The pages read while the request waited, after the first `afterEvents` events. */
  waiting: Pages.extend({ afterEvents: z.number().int() }),
  /** The pages read at the end. */
  pages: Pages,
});
const recording = Recording.parse(RECORDED);
const { taskId, events, waiting, pages } = recording;

const opened: EntityInput[] = [
  { kind: 'chat.open', taskId },
  { kind: 'activity.open', taskId },
];
const live: EntityInput[] = events.map((event) => ({ kind: 'event', event }));
const read = (p: Pages, id = taskId): EntityInput[] => [
  { kind: 'tasks.page', tasks: p.listTasks.tasks },
  { kind: 'chat.latest', taskId: id, page: p.getTaskRecent },
  { kind: 'requests.page', taskId: id, tool: p.listToolRequests.requests, package: p.listPackageRequests.requests },
  { kind: 'activity.page', taskId: id, events: p.listTaskEvents.events },
];
const paged = read(pages);

const fold = (inputs: readonly EntityInput[]) => inputs.reduce(reduceEntities, NO_ENTITIES);

/** What a window shows of the entities, row by row. */
function rows(entities: Entities) {
  const state = { entities, olderLoad: 'idle' as const, activityLoad: { taskId, load: 'ready' as const, error: null } };
  const detail = selectDetail(state);
  const activity = selectActivity(state)?.events ?? [];
  return {
    tasks: selectTasks(state).map((t) => ({ id: t.id, title: t.title, status: t.status })),
    latestJobs: selectLatestJobs(state),
    jobs: detail?.jobs,
    chat: chatItems(detail?.comments ?? [], detail?.steps ?? []),
    olderCount: detail?.olderCount,
    requests: entities.requests,
    activity: activityRows(activity).map(({ kind, type, title, detail, status, error, jobId }) => ({
      kind,
      type,
      title,
      detail,
      status,
      error,
      jobId,
    })),
  };
}

describe('the entity reducer on a recorded run', () => {
  const fromPages = rows(fold([...opened, ...paged]));

  it('the recording holds what the rows are made of: two jobs, the chat, an approved request, the activity', () => {
    expect(fromPages.jobs?.map((j) => j.status)).toEqual(['succeeded', 'succeeded']);
    expect(fromPages.chat.length).toBeGreaterThanOrEqual(8);
    expect(fromPages.requests?.tool.map((r) => r.status)).toEqual(['approved']);
    expect(fromPages.tasks).toEqual([{ id: taskId, title: 'Recorded task', status: 'succeeded' }]);
    expect(fromPages.activity.some((r) => r.type === 'tool_request.changed')).toBe(true);
  });

  it('P7.14 the live events make the same rows as the pages', () => {
    expect(rows(fold([...opened, ...live]))).toEqual(fromPages);
  });

  it('P7.17 P7.14 a window opened while the card waited shows it; the rest of the stream makes the same rows', () => {
    const { afterEvents } = waiting;
    const opening = rows(fold([...opened, ...read(waiting)]));
    expect(opening.requests?.tool.map((r) => r.status)).toEqual(['pending']);
    expect(opening.jobs?.map((j) => [j.status, j.waitReason])).toEqual([['waiting_human', 'tool_request']]);
    const midway = fold([...opened, ...live.slice(0, afterEvents), ...read(waiting), ...live.slice(afterEvents)]);
    expect(rows(midway)).toEqual(fromPages);
    // A window opened while the card waited: the pages first, then what came after them.
    expect(rows(fold([...opened, ...read(waiting), ...live.slice(afterEvents)]))).toEqual(fromPages);
  });

  it('P7.14 the pages read while the card waited, answered only after the rest of the stream, undo nothing', () => {
    // The decided request, the ended jobs and the answered steps stay as the later events left them.
    expect(rows(fold([...opened, ...live, ...read(waiting)]))).toEqual(fromPages);
  });

  it('P7.14 persisted events sent again after a reconnect, and the pages read again, change no row', () => {
    const persisted = live.filter((input) => input.kind === 'event' && input.event.seq > 0);
    expect(rows(fold([...opened, ...live, ...persisted, ...paged, ...persisted, ...paged]))).toEqual(fromPages);
    expect(rows(fold([...opened, ...paged, ...persisted]))).toEqual(fromPages);
  });

  it('is pure: the state it folds from is left as it was', () => {
    const before = fold([...opened, ...live.slice(0, 20)]);
    const copy = structuredClone(before);
    for (const input of [...live.slice(20), ...paged]) reduceEntities(before, input);
    expect(before).toEqual(copy);
  });

  it('another task’s events and pages leave the open task’s rows alone, and an unknown input is refused', () => {
    const otherTask = Recording.parse(
      JSON.parse(JSON.stringify(recording).replaceAll(taskId, 'task_other').replaceAll('"job_', '"jobother_')),
    );
    const otherInputs: EntityInput[] = [
      ...otherTask.events.map((event) => ({ kind: 'event' as const, event })),
      ...read(otherTask.pages, 'task_other').slice(1),
    ];
    const { tasks, latestJobs, ...open } = rows(fold([...opened, ...live, ...otherInputs]));
    const { tasks: _tasks, latestJobs: _latest, ...expected } = fromPages;
    expect(open).toEqual(expected);
    expect(tasks.map((t) => [t.id, t.status])).toEqual(
      expect.arrayContaining([
        [taskId, 'succeeded'],
        ['task_other', 'succeeded'],
      ]),
    );
    expect(Object.keys(latestJobs).sort()).toEqual([taskId, 'task_other'].sort());
    expect(() => reduceEntities(NO_ENTITIES, { kind: 'chat.reset' } as never)).toThrow(/unexpected .*chat\.reset/);
  });
});
