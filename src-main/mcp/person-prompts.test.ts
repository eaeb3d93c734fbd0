// The questions servers ask the person: open until answered, until their bound passes (cancel), or until the job's
// signal aborts; an answer goes to the task that holds the question only, and a form's content is checked first.
import { describe, expect, it } from 'vitest';
import { MaestroError } from '../../src-shared/errors';
import { McpPrompts } from './person-prompts';

const form = {
  kind: 'elicit' as const,
  taskId: 't1',
  jobId: 'j1',
  server: 's',
  message: 'Name?',
  fields: [
    {
      name: 'name',
      title: 'Name',
      description: null,
      kind: 'string' as const,
      required: true,
      format: null,
      options: [],
      default: null,
      min: null,
      max: null,
    },
  ],
};

describe('McpPrompts', () => {
  it('a question nobody answers is cancelled once its bound passes, and is gone', async () => {
    const prompts = new McpPrompts(() => 80);
    const changes: boolean[] = [];
    prompts.listen((_p, open) => changes.push(open));
    const started = Date.now();
    const answer = await prompts.ask(form, new AbortController().signal);
    expect(answer).toEqual({ action: 'cancel', by: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
    expect(prompts.list('t1')).toEqual([]);
    expect(changes).toEqual([true, false]);
  });

  it('the job’s end cancels it; an answer afterwards finds nothing and changes nothing', async () => {
    const prompts = new McpPrompts(() => 60_000);
    const job = new AbortController();
    const asked = prompts.ask(form, job.signal);
    const [open] = prompts.list('t1');
    job.abort();
    expect(await asked).toEqual({ action: 'cancel', by: 'aborted' });
    expect(() => prompts.answer('t1', open?.id as string, 'accept', { name: 'x' })).toThrow(/is not waiting/);
  });

  it('a bad answer is refused naming the field and leaves the question open; another task cannot answer it', async () => {
    const prompts = new McpPrompts(() => 60_000);
    const asked = prompts.ask(form, new AbortController().signal);
    const [open] = prompts.list('t1');
    const id = open?.id as string;
    expect(open?.expiresAt).toBeDefined();
    let refusal: unknown;
    try {
      prompts.answer('t1', id, 'accept', { name: '', extra: 1 });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(MaestroError);
    expect(refusal).toMatchObject({
      code: 'invalid_input',
      issues: [
        { path: ['content', 'extra'], message: 'the form has no such field' },
        { path: ['content', 'name'], message: 'is required' },
      ],
    });
    expect(() => prompts.answer('t2', id, 'decline')).toThrow(/is not waiting in task t2/);
    expect(prompts.list('t1')).toHaveLength(1);
    prompts.answer('t1', id, 'accept', { name: 'Ada' });
    expect(await asked).toEqual({ action: 'accept', content: { name: 'Ada' }, by: 'person' });
  });
});
