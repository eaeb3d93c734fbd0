import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  current,
  errorOf,
  expectInOrder,
  FIXTURES,
  facetNames,
  layout,
  movement,
  piece,
  seen,
} from '../../../test-support/takt-pieces';
import { PieceCatalog } from './catalog';
import { transitionTargets } from './schema';

describe('TAKT workflows: the current layout (builtins/<lang>/{workflows,facets,steps})', () => {
  it("P1.29 a folder shaped like TAKT's builtins loads whole: none refused, every step with its facets' text, no facet name as a bare word", () => {
    expect(current.errors).toEqual([]);
    // review-loop is callable only (subworkflow.callable), so it is inlined where called, not offered on its own.
    expect(current.pieces.map((p) => p.id)).toEqual([
      'all-steps',
      'call-review',
      'capabilities',
      'facets-by-name',
      'infinite',
      'inline-personas',
      'loop-monitor',
      'parallel-list',
      'parallel-pool',
      'placeholders',
      'steps-and-rules',
      'team-leader',
      'uses-fragments',
    ]);
    const names = new Set(facetNames(path.join(FIXTURES, 'current')));
    for (const p of current.pieces) {
      expect(p.format).toBe('takt');
      for (const m of p.movements) {
        expect(m.guidance, `${p.id}/${m.name} guidance`).not.toBe('');
        expect(m.instruction, `${p.id}/${m.name} instruction`).not.toBe('');
        const bare = seen(m)
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => names.has(line));
        expect(bare, `${p.id}/${m.name}: facet names as text`).toEqual([]);
        expect(seen(m)).not.toMatch(/\{extends:|\$param/);
      }
    }
  });

  it('steps and rules: initial_step, max_steps, COMPLETE/ABORT with appendix, self-loop rules kept (ask, run again)', () => {
    const p = piece('steps-and-rules');
    expect(p).toMatchObject({ startMovement: 'plan', maxMovements: 12, revisitLimit: 12 });
    const plan = movement(p, 'plan');
    expect(plan.guidance).toContain('(PERSONA-PLANNER)');
    expect(plan.instruction).toContain('(INSTRUCTION-PLAN)');
    // A rule that runs the step again is a transition to itself; one that needs the user is a question.
    expect(plan.transitions).toEqual([
      { to: 'implement', when: 'Requirements are clear' },
      { to: 'plan', when: 'The plan needs another pass' },
    ]);
    expect(plan.instruction).toContain('- The plan needs another pass: call `transition` with next "plan"');
    expect(plan.instruction).toContain(
      '- User input is needed: call `complete` with status "needs_user_input" and your question',
    );
    expect(plan.instruction).toContain(
      '- Requirements are unclear: call `complete` with status "failure"\n  In your message, include:\n  Clarifications needed:\n  - {Question 1}',
    );
    expect(movement(p, 'implement').instruction).toContain(
      '- Implementation complete: call `complete` with status "success"',
    );
    expect(transitionTargets(p)).toEqual(['plan', 'implement', 'intake']);
  });

  it('max_steps: infinite has no movement budget', () => {
    expect(piece('infinite')).toMatchObject({ maxMovements: Infinity, revisitLimit: Infinity });
  });

  it('parallel as a list: one movement doing the parts in turn, each with its persona, facets and verdicts; all()/any() spelled out', () => {
    const reviewers = movement(piece('parallel-list'), 'reviewers');
    expect(reviewers.guidance).toMatch(
      /^## Part arch-review\n.*\(PERSONA-REVIEWER\)[\s\S]*## Part security-review\n.*\(PERSONA-SECURITY\)/,
    );
    const text = reviewers.instruction ?? '';
    expect(text).toContain('This step has 2 parts (arch-review, security-review). Do them one after another');
    expect(text.indexOf('(INSTRUCTION-REVIEW-ARCH)')).toBeLessThan(text.indexOf('(INSTRUCTION-REVIEW-SECURITY)'));
    expect(text).toContain('KNOWLEDGE-ARCHITECTURE');
    expect(text).toContain('(POLICY-REVIEW)');
    expect(text).toContain('End this part with its verdict, one of: "approved", "needs_fix".');
    expect(text).toContain('- every part\'s verdict is "approved": call `complete` with status "success"');
    expect(text).toContain('- any part\'s verdict is "needs_fix": call `transition` with next "fix"');
    expect(reviewers).toMatchObject({ edit: false, tools: null, transitions: [{ to: 'fix' }] });
  });

  it('parallel as a mapping: the fixed parts always, the pool parts those the change needs, by their description', () => {
    const text = movement(piece('parallel-pool'), 'reviewers').instruction ?? '';
    expect(text).toContain('This step has 1 part (arch-review).\n');
    expect(text).toContain('Of the following parts, do only those that this change needs (judge by their description)');
    expect(text).toContain(
      '## Part frontend-review — Review frontend and UI changes\nReview the UI part of the change',
    );
    expect(text).toContain('## Part security-review — Review authentication and input handling');
  });

  it("kind: workflow_call inlines the called workflow (its steps as <step>.<its step>), args over its defaults, results routed by the call's rules", () => {
    const p = piece('call-review');
    expect(p.movements.map((m) => m.name)).toEqual(['plan', 'peer-review.review', 'peer-review.fix']);
    expect(movement(p, 'plan').transitions).toEqual([{ to: 'peer-review.review', when: 'Planned' }]);
    const review = movement(p, 'peer-review.review');
    // COMPLETE → the call's rule COMPLETE → COMPLETE; `return: need_replan` → the call's rule → plan.
    expect(review.instruction).toContain('- approved: call `complete` with status "success"');
    expect(review.transitions).toEqual([
      { to: 'peer-review.fix', when: 'needs_fix' },
      { to: 'plan', when: 'The plan is wrong' },
    ]);
    // The call passes fix_instruction: implement over the default fix.
    const fix = movement(p, 'peer-review.fix');
    expect(fix.instruction).toContain('(INSTRUCTION-IMPLEMENT)');
    expect(fix.instruction).not.toContain('(INSTRUCTION-FIX)');
    expect(fix.instruction).toContain('- Cannot fix: call `complete` with status "failure"');
  });

  it('a workflow_call as the first step starts the piece in the called workflow; its vars fill {var:name}; nested calls get prefixed twice', () => {
    const callable = (name: string, body: string) => `name: ${name}\nsubworkflow:\n  callable: true\n${body}`;
    const dir = layout({
      'w.yaml': `name: w\nsteps:\n  - name: outer\n    kind: workflow_call\n    call: mid\n    vars:\n      mode: strict\n    rules:\n      - condition: COMPLETE\n        next: COMPLETE\n`,
      'mid.yaml': callable(
        'mid',
        'steps:\n  - name: inner\n    kind: workflow_call\n    call: leaf\n    rules:\n      - condition: COMPLETE\n        next: COMPLETE\n',
      ),
      'leaf.yaml': callable(
        'leaf',
        'steps:\n  - name: work\n    persona: coder\n    instruction: "Work in {var:mode} mode; colour {var:colour}."\n    rules:\n      - condition: ai("the work is done")\n        next: COMPLETE\n',
      ),
    });
    const p = piece('w', new PieceCatalog(dir).load());
    expect(p.startMovement).toBe('outer.inner.work');
    const work = movement(p, 'outer.inner.work');
    expect(work.instruction).toContain('Work in strict mode; colour unspecified.');
    expect(work.instruction).toContain('- the work is done: call `complete` with status "success"');
  });

  it('uses: a step fragment from steps/ with its parameters bound (a list spliced in place), a parallel fragment with a rule tree', () => {
    const p = piece('uses-fragments');
    const implement = movement(p, 'implement');
    expect(implement.guidance).toContain('(PERSONA-CODER)');
    expect(implement.instruction).toContain('(POLICY-CODING)');
    expect(implement.instruction).toContain('KNOWLEDGE-ARCHITECTURE');
    expect(implement).toMatchObject({
      edit: true,
      transitions: [{ to: 'reviewers', when: 'Implementation complete' }],
    });
    const reviewers = movement(p, 'reviewers');
    expect(reviewers.instruction).toContain('End this part with its verdict, one of: "approved", "needs_fix".');
    expect(reviewers.transitions).toEqual([{ to: 'implement', when: 'any part\'s verdict is "needs_fix"' }]);
  });

  it('facets by bare name: persona → guidance; knowledge, instruction, policy (with {extends}), quality gates and report format → the instruction', () => {
    const plan = movement(piece('facets-by-name'), 'plan');
    expect(plan.guidance).toBe(
      'You are the planner (PERSONA-PLANNER). You turn a request into a plan a coder can follow.',
    );
    const text = plan.instruction ?? '';
    expectInOrder(text, [
      '## Knowledge',
      'KNOWLEDGE-ARCHITECTURE',
      '(INSTRUCTION-PLAN)',
      '## Policy',
      '(POLICY-BASE)',
      '(POLICY-CODING)',
      '(POLICY-REVIEW)',
      '## Before you finish',
      '## Reports',
      '(REPORT-FORMAT-PLAN)',
      '## When you are done',
    ]);
    expect(text).toContain('- The plan names every file it touches');
    expect(plan.reports).toEqual(['plan.md']);
  });

  it('pass_previous_response: false leaves {previous_response} empty', () => {
    const dir = layout({
      'w.yaml':
        'name: w\nsteps:\n  - name: a\n    persona: coder\n    instruction: implement\n    pass_previous_response: false\n',
    });
    const a = movement(piece('w', new PieceCatalog(dir).load()), 'a');
    expect(a.instruction).toContain('What the previous step ended with:\n\n\nThis is step {iteration}');
  });

  it('section maps: a persona written inline in personas: is text, not a file path; an instruction inline; a policy by path', () => {
    const tidy = movement(piece('inline-personas'), 'tidy');
    expect(tidy.guidance).toBe(
      'You are a meticulous tidier (INLINE-PERSONA). You leave every file cleaner than you found it.',
    );
    expect(tidy.instruction).toContain('Tidy the files the task names (INLINE-INSTRUCTION).');
    expect(tidy.instruction).toContain('(POLICY-REVIEW)');
  });

  it('capabilities: [edit] grants the edit tools and editing; the workflow default readonly does not', () => {
    const p = piece('capabilities');
    expect(movement(p, 'implement')).toMatchObject({
      edit: true,
      tools: ['read_file', 'list_dir', 'glob', 'grep', 'edit_file', 'write_file', 'run_command'],
    });
    expect(movement(p, 'check')).toMatchObject({
      edit: false,
      tools: ['read_file', 'list_dir', 'glob', 'grep', 'run_command'],
    });
  });

  it('placeholders stay in the instruction for the run to fill; the reports a step ends with are named', () => {
    const p = piece('placeholders');
    expect(movement(p, 'plan').instruction).toContain('Plan this task: {task}\n(step {iteration} of {max_steps})');
    expect(movement(p, 'plan').reports).toEqual(['plan.md']);
    expect(movement(p, 'implement').instruction).toContain('The plan report: {report:plan.md}');
  });

  it("team_leader: one movement where the leader plans the parts and the part worker does them; the parts' tools and edit", () => {
    const p = piece('team-leader');
    const implement = movement(p, 'implement');
    // The leader's persona (the step's), then the part worker's own under its heading.
    expect(implement.guidance).toMatch(
      /^You are the planner \(PERSONA-PLANNER\)[\s\S]*\n\n## Part worker\nYou are the coder \(PERSONA-CODER\)/,
    );
    const text = implement.instruction ?? '';
    expect(text).toContain(
      '1. Plan, using no tool: split the work into between 1 and 2 independent, self-contained parts.',
    );
    expect(text).toContain('each as the part worker described under "## Part worker" in your guidance');
    expect(text).toContain(
      '3. When 1 or fewer planned parts are left to do, decide as the team leader whether more parts are needed',
    );
    expect(text).toContain('at most 20 parts in all');
    // The work to split is the step's own text: its instruction and policy, then its report.
    expectInOrder(text, [
      '## Team leader',
      '### The work to split',
      '(INSTRUCTION-IMPLEMENT)',
      '(POLICY-CODING)',
      '## Reports',
      '(REPORT-FORMAT-PLAN)',
    ]);
    // part_allowed_tools and part_edit, not the leader's reports-only step: the parts edit (WebSearch has no tool).
    expect(implement).toMatchObject({
      edit: true,
      tools: ['read_file', 'list_dir', 'write_file'],
      reports: ['team.md'],
    });
    // No part_persona: the worker is the step's persona, so no second heading; edit: false keeps the parts read-only.
    const review = movement(p, 'review');
    expect(review.guidance).toMatch(/^You are an architecture reviewer \(PERSONA-REVIEWER\)[^#]*$/);
    expect(review.instruction).toContain(
      "each as the part worker, following only that part's instruction. The parts may not change files.",
    );
    expect(review.instruction).toContain('3. When every planned part is done');
    expect(review).toMatchObject({ edit: false, tools: ['read_file', 'list_dir', 'glob', 'grep'] });
  });

  it("team_leader in TAKT's later names: initial_max_parts bounds the first plan, inspect_tools are the leader's reading tools, fail_on_part_error fails the step", () => {
    const dir = layout({
      'w.yaml':
        'name: w\nsteps:\n  - name: a\n    persona: planner\n    instruction: implement\n    team_leader:\n      max_concurrency: 2\n      initial_max_parts: 4\n      fail_on_part_error: true\n      inspect_tools: [Read, Grep]\n      part_tags: [coding]\n      part_persona: coder\n      part_allowed_tools: [Edit]\n    rules:\n      - condition: done\n        next: COMPLETE\n',
    });
    const a = movement(piece('w', new PieceCatalog(dir).load()), 'a');
    expect(a.instruction).toContain(
      '1. Plan, using no tool but read_file, list_dir, grep: split the work into between 1 and 4 independent',
    );
    expect(a.instruction).toContain('but the step then ends in failure: call `complete` with status "failure".');
    expect(a).toMatchObject({ edit: true, tools: ['edit_file', 'read_file', 'list_dir', 'grep'] });
    const both = layout({
      'w.yaml': 'name: w\nsteps:\n  - name: a\n    team_leader:\n      max_parts: 2\n      max_concurrency: 2\n',
    });
    expect(errorOf(both).message).toContain(
      'steps.0.team_leader.max_concurrency (line 6): max_parts and max_concurrency cannot be used together',
    );
  });

  it('all_steps.rules: each rule file in every agent step, before the instruction or after the execution rules; a called workflow inherits them', () => {
    const p = piece('all-steps');
    for (const name of ['plan', 'peer-review.review', 'peer-review.fix']) {
      expectInOrder(
        movement(p, name).instruction ?? '',
        ['(RULE-EVIDENCE-FIRST)', '(INSTRUCTION-', 'Do not run git add', '(RULE-PLAIN-WORDS)', '## When you are done'],
        name,
      );
    }
    // The called workflow on its own has no rules of its parent.
    expect(movement(piece('call-review'), 'peer-review.review').instruction).not.toContain('RULE-');
    const missing = layout({
      'w.yaml': 'name: w\nall_steps:\n  rules:\n    - nowhere\nsteps:\n  - name: a\n    persona: coder\n',
    });
    expect(errorOf(missing).message).toMatch(
      /^TAKT piece: all_steps\.rules\.0 \(line 4\): no rule named nowhere \(looked for .*workflows\/rules\/nowhere\.md\)$/,
    );
  });

  it('loop_monitors: the judge becomes a movement, the monitor a loop check on the cycle', () => {
    const p = piece('loop-monitor');
    expect(p.loopMonitors).toEqual([{ cycle: ['review', 'fix'], ignore: [], threshold: 2, judge: 'loop-check-1' }]);
    const judge = movement(p, 'loop-check-1');
    expect(judge.guidance).toContain('(PERSONA-SUPERVISOR)');
    expect(judge.instruction).toContain('have now run {cycle_count} times in a row');
    expect(judge.instruction).toContain('(INSTRUCTION-LOOP-JUDGE)');
    expect(judge.transitions).toEqual([{ to: 'review', when: 'Healthy (findings decreasing)' }]);
  });
});
