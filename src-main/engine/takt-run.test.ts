// TAKT workflows run end to end: the fixtures (pieces/takt-fixtures/current) as a workspace's `.maestro/` — workflows
// in pieces/, facets and step fragments beside them — through the Worker, the real tools and a scripted model, checking
// what reaches the model (the request bodies the scripted server saw) and what the steps may do.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { call, complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

const CURRENT = path.join(__dirname, 'pieces', 'takt-fixtures', 'current');

type Msg = { role: string; content: string | null };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const lastUser = (r: RecordedRequest | undefined) => messages(r).findLast((m) => m.role === 'user')?.content ?? '';

/** A workspace whose `.maestro/` holds TAKT's layout: the given workflows in pieces/, the fixtures' facets and steps. */
function taktWorkspace(...workflows: string[]): string {
  const ws = tempDir('maestro-ws-');
  const maestro = path.join(ws, '.maestro');
  fs.cpSync(path.join(CURRENT, 'facets'), path.join(maestro, 'facets'), { recursive: true });
  fs.cpSync(path.join(CURRENT, 'steps'), path.join(maestro, 'steps'), { recursive: true });
  fs.cpSync(path.join(CURRENT, 'workflows', 'rules'), path.join(maestro, 'pieces', 'rules'), { recursive: true });
  for (const name of workflows) {
    fs.copyFileSync(path.join(CURRENT, 'workflows', `${name}.yaml`), path.join(maestro, 'pieces', `${name}.yaml`));
  }
  return ws;
}

const entered = (events: MaestroEvent[]) => events.flatMap((e) => (e.type === 'movement.entered' ? [e.movement] : []));

describe('TAKT workflows run with the scripted model', () => {
  it('P3.12 P5.05 P5.07 facets reach the model (persona in the system message, instruction with its placeholders filled in the user message), and a capabilities: [edit] step edits', async () => {
    const ws = taktWorkspace('capabilities');
    const h = await engineHarness(
      [
        call('write_file', { path: 'hello.txt', content: 'hello\n' }, 'w1'),
        transition('check', 'Wrote hello.txt'),
        call('write_file', { path: 'other.txt', content: 'no\n' }, 'w2'),
        complete('Checked.'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Create hello.txt', { pieceId: 'capabilities' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Checked.' });
    expect(fs.readFileSync(path.join(ws, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(entered(h.events)).toEqual(['implement', 'check']);

    const [first, , last, after] = h.server.requests;
    const system = messages(first)[0]?.content ?? '';
    expect(system).toContain('# Movement: implement\nYou are the coder (PERSONA-CODER).');
    // Static: nothing of this job (its task, counts or the instruction's filled placeholders) in the system message.
    expect(system).not.toMatch(/Create hello\.txt|INSTRUCTION-IMPLEMENT|step 1 of/);
    const user = lastUser(first);
    expect(user).toContain('# Task\nCreate hello.txt');
    expect(user).toContain('# Step instruction (implement)\nImplement the plan (INSTRUCTION-IMPLEMENT).');
    expect(user).toContain('This is step 1 of 20; you are in this step for time 1.');
    expect(user).not.toMatch(/\{(previous_response|iteration|max_steps|step_iteration)\}/);
    // The check step arrives as a note: its persona and instruction, after the previous step's output.
    const note = lastUser(last);
    expect(note).toContain('# Movement: check\nYou are an architecture reviewer (PERSONA-REVIEWER).');
    expect(note).toContain('# Step instruction (check)\nReview the design of the change (INSTRUCTION-REVIEW-ARCH).');
    expect(messages(last)[0]?.content).toBe(system);
    // The checker has the workflow's readonly capabilities: write_file is refused there, nothing written.
    expect(messages(after).at(-1)?.content).toMatch(
      /^Error: write_file is not available in movement check \(available: read_file, list_dir, glob, grep, run_command\)/,
    );
    expect(fs.existsSync(path.join(ws, 'other.txt'))).toBe(false);
  });

  it('P1.10 {previous_response}, {iteration}, {step_iteration}, {report:<name>} and {user_inputs} are filled when the movement starts', async () => {
    const h = await engineHarness(
      [
        complete('Which changelog format?', 'needs_user_input'),
        transition('implement', '# Plan\n1. add the file'),
        complete('Implemented.'),
      ],
      { workspace: taktWorkspace('placeholders') },
    );
    const { taskId, jobId } = h.createTask('Add a CHANGELOG', { pieceId: 'placeholders' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human' });
    expect(lastUser(h.server.requests[0])).toContain('Plan this task: Add a CHANGELOG\n(step 1 of 6)');
    // The answer starts a job that resumes in plan; what the user said is {user_inputs} there.
    const answer = h.maestro.invoke('addComment', { taskId, body: 'Keep a Changelog, please' });
    expect(await h.waitFor(answer.job?.id as string, SETTLED)).toMatchObject({ status: 'succeeded' });
    const note = lastUser(h.server.requests[2]);
    expect(note).toContain('# Step instruction (implement)\nPrevious: # Plan\n1. add the file');
    expect(note).toContain('The plan report: # Plan\n1. add the file');
    expect(note).toContain('Reports folder: (no report folder: each report is in this conversation');
    expect(note).toContain('What the user said: Keep a Changelog, please');
    expect(note).toContain('Step 2 of 6, visit 1.');
  });

  it('P3.13 P5.02 P5.15 kind: workflow_call runs the called workflow inlined: its steps, its args, its results routed back', async () => {
    const h = await engineHarness(
      [
        transition('peer-review.review', 'planned'),
        transition('peer-review.fix', 'one finding'),
        transition('peer-review.review'),
        transition('plan', 'the plan is wrong'), // return: need_replan → the call's rule → plan
        transition('peer-review.review'),
        complete('Approved.'),
      ],
      { workspace: taktWorkspace('call-review', 'review-loop') },
    );
    const { jobId } = h.createTask('Review the change', { pieceId: 'call-review' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Approved.' });
    expect(entered(h.events)).toEqual([
      'plan',
      'peer-review.review',
      'peer-review.fix',
      'peer-review.review',
      'plan',
      'peer-review.review',
    ]);
    // The cache contract holds across the inlined movements: every request extends the previous one.
    const reqs = h.server.requests;
    for (let i = 1; i < reqs.length; i++) {
      const prev = messages(reqs[i - 1]);
      expect(JSON.stringify(messages(reqs[i]).slice(0, prev.length))).toBe(JSON.stringify(prev));
      expect(JSON.stringify(reqs[i]?.body?.tools)).toBe(JSON.stringify(reqs[0]?.body?.tools));
    }
    // The call's args: fix_instruction = implement, over review-loop's default (fix).
    const fixNote = lastUser(h.server.requests[2]);
    expect(fixNote).toContain('# Movement: peer-review.fix\nYou are the coder (PERSONA-CODER).');
    expect(fixNote).toContain('(INSTRUCTION-IMPLEMENT)');
    expect(fixNote).toContain('What the previous step ended with:\none finding');
  });

  it("parallel parts run in one movement: every part's persona and instruction reach the model, in order", async () => {
    const h = await engineHarness(
      [transition('fix', 'needs_fix'), transition('reviewers'), complete('Both approved.')],
      {
        workspace: taktWorkspace('parallel-list'),
      },
    );
    const { jobId } = h.createTask('Review it', { pieceId: 'parallel-list' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    const first = h.server.requests[0];
    const system = messages(first)[0]?.content ?? '';
    expect(system).toMatch(/## Part arch-review\n.*PERSONA-REVIEWER[\s\S]*## Part security-review\n.*PERSONA-SECURITY/);
    const user = lastUser(first);
    expect(user.indexOf('(INSTRUCTION-REVIEW-ARCH)')).toBeGreaterThan(0);
    expect(user.indexOf('(INSTRUCTION-REVIEW-SECURITY)')).toBeGreaterThan(user.indexOf('(INSTRUCTION-REVIEW-ARCH)'));
    expect(entered(h.events)).toEqual(['reviewers', 'fix', 'reviewers']);
  });

  it('P3.12 P5.05 team_leader: the leader and part worker personas and the team plan reach the model; the parts edit (part_edit, part_allowed_tools), the read-only review does not', async () => {
    const ws = taktWorkspace('team-leader');
    const h = await engineHarness(
      [
        call('write_file', { path: 'part-a.txt', content: 'a\n' }, 'w1'),
        call('write_file', { path: 'part-b.txt', content: 'b\n' }, 'w2'),
        transition(
          'review',
          '## decomposition\n- a\n- b\n\n## a: first\nwrote part-a.txt\n\n## b: second\nwrote part-b.txt',
        ),
        call('write_file', { path: 'review.txt', content: 'no\n' }, 'w3'),
        complete('approved'),
      ],
      { workspace: ws, policyTools: true },
    );
    const { jobId } = h.createTask('Add two files', { pieceId: 'team-leader' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'approved' });
    expect(entered(h.events)).toEqual(['implement', 'review']);
    expect(fs.readFileSync(path.join(ws, 'part-a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(ws, 'part-b.txt'), 'utf8')).toBe('b\n');
    const first = h.server.requests[0];
    const system = messages(first)[0]?.content ?? '';
    expect(system).toMatch(
      /# Movement: implement\nYou are the planner \(PERSONA-PLANNER\)[\s\S]*## Part worker\nYou are the coder \(PERSONA-CODER\)/,
    );
    const user = lastUser(first);
    expect(user).toContain('# Step instruction (implement)\n## Team leader\n');
    expect(user).toContain('split the work into between 1 and 2 independent, self-contained parts');
    expect(user).toMatch(
      /### The work to split\n[\s\S]*Implement the plan \(INSTRUCTION-IMPLEMENT\)[\s\S]*This is step 1 of 8/,
    );
    // The review's parts may not edit: its write_file is refused, nothing written.
    const review = h.server.requests[4];
    expect(lastUser(h.server.requests[3])).toContain('# Movement: review');
    expect(messages(review).at(-1)?.content).toMatch(/^Error: write_file is not available in movement review/);
    expect(fs.existsSync(path.join(ws, 'review.txt'))).toBe(false);
  });

  it("all_steps.rules reach the model in every step, the called workflow's too", async () => {
    const h = await engineHarness([transition('peer-review.review', 'planned'), complete('approved')], {
      workspace: taktWorkspace('all-steps', 'review-loop'),
    });
    const { jobId } = h.createTask('Review the change', { pieceId: 'all-steps' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    const first = lastUser(h.server.requests[0]);
    expect(first).toMatch(
      /# Step instruction \(plan\)\nBefore you change anything[^\n]*\(RULE-EVIDENCE-FIRST\)\.\n\n[\s\S]*\(INSTRUCTION-PLAN\)[\s\S]*\(RULE-PLAIN-WORDS\)/,
    );
    const note = lastUser(h.server.requests[1]);
    expect(note).toContain('# Movement: peer-review.review');
    expect(note).toMatch(/\(RULE-EVIDENCE-FIRST\)[\s\S]*\(INSTRUCTION-REVIEW-ARCH\)[\s\S]*\(RULE-PLAIN-WORDS\)/);
  });

  it('P3.09 loop_monitors: once the cycle ran threshold times, the judge movement decides (with {cycle_count} filled)', async () => {
    const h = await engineHarness(
      [
        transition('fix'),
        transition('review'),
        transition('fix'),
        transition('review'), // review → fix ran twice: the judge comes in instead of review
        transition('review', 'findings are fewer'),
        complete('Approved.'),
      ],
      { workspace: taktWorkspace('loop-monitor') },
    );
    const { jobId } = h.createTask('Fix the bugs', { pieceId: 'loop-monitor' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(entered(h.events)).toEqual(['review', 'fix', 'review', 'fix', 'loop-check-1', 'review']);
    const judge = lastUser(h.server.requests[4]);
    expect(judge).toContain('(Loop check: review → fix ran 2 times in a row.)');
    expect(judge).toContain('You are the supervisor (PERSONA-SUPERVISOR).');
    expect(judge).toContain('The steps review → fix have now run 2 times in a row.');
  });

  it('P3.15 self-loop rules: one runs the step again, the one that needs the user asks (waiting_human)', async () => {
    const h = await engineHarness(
      [transition('plan', 'another pass'), complete('Which file should the plan cover?', 'needs_user_input')],
      { workspace: taktWorkspace('steps-and-rules') },
    );
    const { jobId } = h.createTask('Plan something', { pieceId: 'steps-and-rules' });
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    expect(entered(h.events)).toEqual(['plan', 'plan']);
    expect(lastUser(h.server.requests[1])).toContain('# Movement: plan');
  });
});
