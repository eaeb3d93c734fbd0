// The LLM Router (spec §1 CLASSIFY) through the Worker, the engine and the scripted model: a task created without a
// piece gets the one the model chooses before its first job; a failure leaves the default with a warning; a piece
// given, or a pinned space, never asks the router; with the router off the default piece runs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import type { ChatRequestBody } from '../../test-support/scripted-llm-server';
import { CHOOSE_PIECE } from './piece-router';

const toolNames = (body: ChatRequestBody | null) =>
  ((body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe('the LLM Router', () => {
  it('P10.05 a task without a piece runs the piece the router chose; the task and its job name it', async () => {
    const h = await engineHarness(
      [
        call(CHOOSE_PIECE, { pieceId: 'plan-implement-review' }),
        transition('implement'),
        transition('review'),
        complete('Built and reviewed.'),
      ],
      { pieceRouter: true },
    );
    const { taskId, jobId } = h.createTask('Add a --verbose flag, with a plan and a review');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', pieceId: 'plan-implement-review' });
    const routing = h.server.requests[0]?.body ?? null;
    expect(toolNames(routing)).toEqual([CHOOSE_PIECE]);
    const choice = (
      (routing?.tools ?? []) as { function: { parameters: { properties: { pieceId: { enum: string[] } } } } }[]
    )[0];
    expect(choice?.function.parameters.properties.pieceId.enum).toEqual(
      expect.arrayContaining(['default', 'plan-implement-review', 'ask-first']),
    );
    expect(JSON.stringify(routing?.messages)).toContain('Add a --verbose flag');
    expect(h.maestro.invoke('getTask', { taskId }).task.pieceId).toBe('plan-implement-review');
    expect(h.maestro.store.tasks.pieceChoice(taskId)).toBe('routed');
    expect(h.events.filter((e) => e.type === 'task.routed')).toEqual([
      expect.objectContaining({ pieceId: 'plan-implement-review', routed: true, warning: null }),
    ]);
    // The job itself ran the chosen piece's movements.
    expect(h.events.flatMap((e) => (e.type === 'movement.entered' ? [e.movement] : []))).toEqual([
      'plan',
      'implement',
      'review',
    ]);
  });

  it.each([
    [
      'names an unknown piece',
      call(CHOOSE_PIECE, { pieceId: 'no-such-piece' }),
      /named "no-such-piece", which is no piece/,
    ],
    ['answers without choosing', { text: 'I would pick the default one.' }, /without choosing a piece/],
    ['fails', { fault: 'http', status: 401, message: 'bad key' } as const, /router's model failed/],
  ])('P10.06 the router %s → the default piece runs, with a warning event', async (_, reply, warning) => {
    const h = await engineHarness([reply, complete('done by default')], { pieceRouter: true });
    const { taskId, jobId } = h.createTask('Do it');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', pieceId: 'default' });
    const routed = h.events.filter((e) => e.type === 'task.routed');
    expect(routed).toEqual([expect.objectContaining({ pieceId: 'default', routed: false })]);
    expect((routed[0] as { warning: string }).warning).toMatch(warning);
    expect(h.maestro.store.tasks.pieceChoice(taskId)).toBe('default');
  });

  it('P10.03 P10.04 a piece given, or a space pinned to one, never asks the router; routing happens once per task', async () => {
    const h = await engineHarness(
      [
        complete('given'),
        complete('seeded'),
        complete('pinned'),
        call(CHOOSE_PIECE, { pieceId: 'default' }),
        complete('first'),
        complete('second'),
      ],
      { pieceRouter: true },
    );
    const given = h.createTask('Given', { pieceId: 'default' });
    await h.waitFor(given.jobId, SETTLED);
    const folder = fs.mkdtempSync(path.join(h.workspace, 'pinned-'));
    const seed = h.createTask('Seed the space', { workspacePath: folder, pieceId: 'default' });
    await h.waitFor(seed.jobId, SETTLED);
    const spaceId = h.maestro.invoke('listSpaces', {}).spaces.find((s) => s.folder === fs.realpathSync(folder))?.id;
    h.maestro.invoke('updateSpace', { spaceId: spaceId as string, pinnedPieceId: 'default' });
    const pinned = h.createTask('In the pinned space', { workspacePath: folder });
    expect(await h.waitFor(pinned.jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'pinned' });
    expect(h.maestro.store.tasks.pieceChoice(pinned.taskId)).toBe('pinned');

    const routed = h.createTask('Route me');
    expect(await h.waitFor(routed.jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'first' });
    // A follow-up of the routed task keeps its piece without asking again.
    const next = h.maestro.invoke('addComment', { taskId: routed.taskId, body: 'once more' });
    expect(await h.waitFor(next.job?.id as string, SETTLED)).toMatchObject({ status: 'succeeded', result: 'second' });
    const routingRequests = h.server.requests.filter((r) => toolNames(r.body).includes(CHOOSE_PIECE));
    expect(routingRequests).toHaveLength(1);
    h.server.expectEmpty();
  });

  it('with the router off, a task without a piece runs the default piece and nothing is routed', async () => {
    const h = await engineHarness([complete('plain')]);
    const { taskId, jobId } = h.createTask('Plain');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', pieceId: 'default' });
    expect(h.maestro.store.tasks.pieceChoice(taskId)).toBe('default');
    expect(h.events.some((e) => e.type === 'task.routed')).toBe(false);
  });
});
