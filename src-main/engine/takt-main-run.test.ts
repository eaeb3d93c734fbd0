// TAKT main's constructs run end to end through the Worker, the real tools and the scripted model: a facet pool picked
// with select_facets, a structured result and a system step routed by the engine — from the fixtures
// (pieces/takt-fixtures/main) — and TAKT main's own `simple` and `default` workflows when a checkout of it is on this
// machine (test-support/takt-main.ts; SKIPPED otherwise).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { call, complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { taktMain, taktMainWorkspace } from '../../test-support/takt-main';
import { tempDir } from '../../test-support/temp-maestro';

const MAIN = path.join(__dirname, 'pieces', 'takt-fixtures', 'main');

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const lastUser = (r: RecordedRequest | undefined) => messages(r).findLast((m) => m.role === 'user')?.content ?? '';
/** The answer the model read for the call `id` (in the request after it). */
const answerTo = (r: RecordedRequest | undefined, id: string) =>
  messages(r).find((m) => m.role === 'tool' && m.tool_call_id === id)?.content ?? '';
const toolNames = (r: RecordedRequest | undefined) =>
  ((r?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const entered = (events: MaestroEvent[]) => events.flatMap((e) => (e.type === 'movement.entered' ? [e.movement] : []));

/** A workspace whose `.maestro/` holds the main-layout fixtures: the given workflows and everything they read. */
function mainWorkspace(...workflows: string[]): string {
  const ws = tempDir('maestro-ws-');
  const maestro = path.join(ws, '.maestro');
  for (const dir of ['facets', 'facet-pools', 'companions', 'schemas'])
    fs.cpSync(path.join(MAIN, dir), path.join(maestro, dir), { recursive: true });
  fs.mkdirSync(path.join(maestro, 'pieces'));
  for (const name of workflows)
    fs.copyFileSync(path.join(MAIN, 'workflows', `${name}.yaml`), path.join(maestro, 'pieces', `${name}.yaml`));
  return ws;
}

describe('TAKT main constructs run with the scripted model', () => {
  it('P3.12 facet pool: the model picks with select_facets, the pick is a recorded call, the chosen facets are its answer; a bad pick is an Error the model can correct', async () => {
    const h = await engineHarness(
      [
        call('select_facets', { pool: 'backend', ids: ['api', 'transactions'], rationale: 'both' }, 's1'),
        call(
          'select_facets',
          { pool: 'backend', ids: ['transactions'], rationale: 'the change writes two tables' },
          's2',
        ),
        transition('review', 'Implemented.'),
        call('select_facets', { pool: 'ui', ids: [], rationale: 'no UI change' }, 's3'),
        complete('Approved.'),
      ],
      { workspace: mainWorkspace('pools'), policyTools: true },
    );
    const { taskId, jobId } = h.createTask('Save orders atomically', { pieceId: 'pools' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Approved.' });
    expect(entered(h.events)).toEqual(['implement', 'review']);
    const [first, second, third, , fifth] = h.server.requests;
    // The tool is in the job's (byte-stable) tools array; the candidates are offered, their text is not sent yet.
    expect(toolNames(first)).toContain('select_facets');
    expect(JSON.stringify(first?.body?.tools)).toBe(JSON.stringify(fifth?.body?.tools));
    expect(lastUser(first)).toContain('- `transactions`: Writes that must be atomic.');
    expect(JSON.stringify(messages(first))).not.toContain('MAIN-POLICY-TRANSACTIONS');
    expect(answerTo(second, 's1')).toBe('Error: at most 1 of backend may be chosen (you chose 2).');
    const picked = answerTo(third, 's2');
    expect(picked).toContain('Chosen from backend: transactions (the change writes two tables).');
    expect(picked).toContain('MAIN-POLICY-TRANSACTIONS');
    expect(picked).toContain('MAIN-KNOWLEDGE-DB');
    expect(picked).not.toContain('MAIN-KNOWLEDGE-API');
    expect(answerTo(fifth, 's3')).toBe("Nothing chosen from ui (no UI change): the step's own facets apply.");
    // The pick is recorded as the job's tool calls, arguments and all (the Activity shows them).
    const turns = h.maestro.store.logEntries.listForTask(taskId).filter((e) => e.kind === 'ToolTurn');
    expect(JSON.stringify(turns.map((t) => t.body))).toContain('the change writes two tables');
  });

  it('P3.13 structured_output and a system step: the engine checks the result, routes on it, and runs the system step without the model', async () => {
    const h = await engineHarness(
      [
        complete('It needs a fix, quickly.'),
        complete(JSON.stringify({ action: 'fix', severity: 5, labels: ['urgent'] })),
        complete('Hotfixed.'),
      ],
      { workspace: mainWorkspace('routed'), policyTools: true },
    );
    const { jobId } = h.createTask('The login page crashes', { pieceId: 'routed' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Hotfixed.' });
    // route is a system step: entered, decided, and no request was made for it.
    expect(entered(h.events)).toEqual(['triage', 'route', 'hotfix']);
    expect(h.server.requests).toHaveLength(3);
    const [first, second, third] = h.server.requests;
    expect(lastUser(first)).toContain('you do not choose the next step');
    expect(toolNames(first)).not.toContain('transition');
    expect(messages(second).at(-1)?.content).toBe(
      'Error: complete: the result is not JSON: send only the JSON object as the message',
    );
    const note = lastUser(third);
    expect(note).toContain(
      '(System step route: when(structured.triage.severity >= 4 && contains(structured.triage.labels, "urgent")) held → hotfix.)',
    );
    expect(note).toContain('# Movement: hotfix');
  });

  it('P3.13 a result that fails its schema is refused with why; the fixed result goes on, and when(true) ends the task', async () => {
    const h = await engineHarness(
      [
        complete(JSON.stringify({ action: 'fix', severity: 9, labels: [] })),
        complete(JSON.stringify({ action: 'fix', severity: 2, labels: [] })),
        complete('Implemented.'),
      ],
      { workspace: mainWorkspace('routed'), policyTools: true },
    );
    const { jobId } = h.createTask('Typo on the home page', { pieceId: 'routed' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Implemented.' });
    expect(entered(h.events)).toEqual(['triage', 'route', 'implement']);
    expect(messages(h.server.requests[1]).at(-1)?.content).toMatch(
      /^Error: complete: the result does not match the step's schema: severity/,
    );
  });

  it('the structured results outlive a park: a question in between, the answer’s job still routes on the earlier result', async () => {
    const ws = mainWorkspace();
    const parked = [
      'name: parked',
      'schemas: { triage: triage-result }',
      'steps:',
      '  - name: triage',
      '    persona: planner',
      '    instruction: triage',
      '    structured_output: { schema_ref: triage }',
      '    rules:',
      '      - { condition: \'when(structured.triage.action == "fix")\', next: confirm }',
      '      - { condition: \'when(structured.triage.action == "skip")\', next: COMPLETE }',
      '  - name: confirm',
      '    persona: coder',
      '    instruction: implement',
      '    rules:',
      '      - { condition: The user confirmed, next: route }',
      '      - { condition: A question for the user, next: confirm, requires_user_input: true }',
      '  - name: route',
      '    mode: system',
      '    rules:',
      '      - { condition: when(structured.triage.severity >= 4), next: hotfix }',
      '      - { condition: when(structured.triage.severity < 4), next: COMPLETE }',
      '  - name: hotfix',
      '    persona: coder',
      '    instruction: implement',
      '    rules:',
      '      - { condition: Hotfix done, next: COMPLETE }',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(ws, '.maestro', 'pieces', 'parked.yaml'), parked);
    const h = await engineHarness(
      [
        complete(JSON.stringify({ action: 'fix', severity: 5, labels: [] })),
        complete('Ship the hotfix today?', 'needs_user_input'),
        transition('route', 'The user confirmed.'),
        complete('Hotfixed.'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { taskId, jobId } = h.createTask('The login page crashes', { pieceId: 'parked' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human' });
    // Stored with the lineage's loop state, not only held in the parked run's memory.
    expect(JSON.parse(h.maestro.store.jobGuards.get(jobId)?.state ?? '{}').structured).toEqual({
      triage: { action: 'fix', severity: 5, labels: [] },
    });
    const answer = h.maestro.invoke('addComment', { taskId, body: 'Yes, today.' });
    expect(await h.waitFor(answer.job?.id as string, SETTLED)).toMatchObject({
      status: 'succeeded',
      result: 'Hotfixed.',
    });
    // The answer's job resumes in confirm (entered again), then the system step reads the first job's result.
    expect(entered(h.events)).toEqual(['triage', 'confirm', 'confirm', 'route', 'hotfix']);
  });
});

const checkout = taktMain();

describe.skipIf(checkout === null)('TAKT main’s simple and default run end to end (a checkout on this machine)', () => {
  const workspace = () => {
    const ws = tempDir('maestro-ws-');
    taktMainWorkspace(checkout as NonNullable<typeof checkout>, ws);
    return ws;
  };

  it('P3.12 P3.13 simple: plan → write_tests → implement (a facet pick) → review → supervise, files written by the editing steps', async () => {
    const ws = workspace();
    const h = await engineHarness(
      [
        transition('write_tests', 'Plan: add() in add.js, tested in add.test.js.'),
        call('write_file', { path: 'add.test.js', content: 'test("add", () => {});\n' }, 'w1'),
        transition('implement', 'Tests written.'),
        call('select_facets', { pool: 'coding-facets', ids: ['testing'], rationale: 'a new tested function' }, 'f1'),
        call('write_file', { path: 'add.js', content: 'export const add = (a, b) => a + b;\n' }, 'w2'),
        transition('review', 'Implemented add().'),
        call('select_facets', { pool: 'coding-facets', ids: [], rationale: 'nothing beyond the fixed facets' }, 'f2'),
        transition('supervise', 'approved'),
        complete('APPROVE: add() is implemented and tested.'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Add an add() function, test first', { pieceId: 'simple' });
    expect(await h.waitFor(jobId, SETTLED, 30_000)).toMatchObject({
      status: 'succeeded',
      result: 'APPROVE: add() is implemented and tested.',
    });
    expect(entered(h.events)).toEqual(['plan', 'write_tests', 'implement', 'review', 'supervise']);
    expect(fs.readFileSync(path.join(ws, 'add.js'), 'utf8')).toContain('a + b');
    expect(fs.existsSync(path.join(ws, 'add.test.js'))).toBe(true);
    const requests = h.server.requests;
    // The implement step offered the pool; the pick's answer is the testing candidate's knowledge.
    expect(lastUser(requests[3])).toContain('## More facets (pool coding-facets)');
    const unitTesting = fs
      .readFileSync(path.join(checkout?.builtins as string, 'en', 'facets', 'knowledge', 'unit-testing.md'), 'utf8')
      .split('\n')
      .find((l) => l.trim() !== '') as string;
    expect(answerTo(requests[4], 'f1')).toContain(unitTesting.trim());
    expect(answerTo(requests[7], 'f2')).toMatch(/^Nothing chosen from coding-facets/);
  });

  it('P3.12 P3.13 default: plan → write tests → implement (with its companions) → reviewers → adjudication → final gate', async () => {
    const ws = workspace();
    const h = await engineHarness(
      [
        transition('develop.write_tests', 'Plan: add() in add.js.'),
        call('write_file', { path: 'add.test.js', content: 'test("add", () => {});\n' }, 'w1'),
        transition('develop.implement.implement', 'Tests written.'),
        call('select_facets', { pool: 'coding-facets', ids: ['backend'], rationale: 'server-side code' }, 'f1'),
        call('write_file', { path: 'add.js', content: 'export const add = (a, b) => a + b;\n' }, 'w2'),
        transition('develop.peer-review.initial-reviewers.review', 'Implemented add().'),
        transition('develop.peer-review.review-adjudication', 'All reviewers: approved.'),
        transition('develop.peer-review.final-gate', 'No finding to adjudicate.'),
        complete('APPROVE: requirements met.'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Add an add() function, test first', { pieceId: 'default' });
    expect(await h.waitFor(jobId, SETTLED, 30_000)).toMatchObject({
      status: 'succeeded',
      result: 'APPROVE: requirements met.',
    });
    expect(entered(h.events)).toEqual([
      'develop.plan',
      'develop.write_tests',
      'develop.implement.implement',
      'develop.peer-review.initial-reviewers.review',
      'develop.peer-review.review-adjudication',
      'develop.peer-review.final-gate',
    ]);
    expect(fs.readFileSync(path.join(ws, 'add.js'), 'utf8')).toContain('a + b');
    const implement = lastUser(h.server.requests[3]);
    expect(implement).toContain('## Companion review');
    expect(implement).toContain('### Reviewer ai-antipattern-review-companion');
    expect(answerTo(h.server.requests[4], 'f1')).toContain('Chosen from coding-facets: backend (server-side code).');
  });
});
