import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorOf, layout } from '../../../test-support/takt-pieces';
import { PieceCatalog } from './catalog';

describe('TAKT workflows: what is refused, by file, line and construct', () => {
  const flow = (step: string, top = '') => `name: w\n${top}steps:\n  - name: a\n    persona: coder\n${step}`;

  it.each([
    [
      'a system step that reads GitHub (system_inputs)',
      'name: w\nsteps:\n  - name: a\n    mode: system\n    system_inputs:\n      - type: pr_list\n        as: prs\n    rules:\n      - condition: when(true)\n        next: COMPLETE\n',
      'steps.0.system_inputs.0 (line 6): system input pr_list is not supported',
    ],
    [
      'a system step that acts on GitHub (effects)',
      'name: w\nsteps:\n  - name: a\n    kind: system\n    effects:\n      - type: merge_pr\n    rules:\n      - condition: when(true)\n        next: COMPLETE\n',
      'steps.0.effects.0 (line 6): system effect merge_pr is not supported',
    ],
    [
      'a system step with an agent field',
      flow('    mode: system\n'),
      'steps.0.persona (line 4): a system step cannot have persona',
    ],
    [
      'a system step routed by a judged condition',
      'name: w\nsteps:\n  - name: a\n    mode: system\n    rules:\n      - condition: looks done\n        next: COMPLETE\n',
      'steps.0.rules.0.condition (line 6): a system step routes only by when() conditions',
    ],
    [
      'when() over TAKT system inputs',
      flow('    rules:\n      - condition: when(context.a.prs.length > 0)\n        next: COMPLETE\n'),
      "steps.0.rules.0.condition (line 6): when(): context.… reads TAKT's system inputs and effects",
    ],
    [
      'when() mixed with judged conditions',
      flow(
        '    rules:\n      - condition: when(true)\n        next: COMPLETE\n      - condition: approved\n        next: COMPLETE\n',
      ),
      "steps.0.rules.1.condition (line 8): a step's rules are all when() conditions or none of them",
    ],
    [
      'when() reading a step without structured_output',
      flow('    rules:\n      - condition: when(structured.a.action == "go")\n        next: COMPLETE\n'),
      'steps.0.rules.0.condition (line 6): when(): structured.a names no step of this workflow with structured_output',
    ],
    [
      'a delayed step',
      flow('    delay_before_ms: 60000\n'),
      'steps.0.delay_before_ms (line 5): delay_before_ms (a timed wait before the step) is not supported',
    ],
    [
      'a state predicate rule',
      flow('    rules:\n      - when: findings.open.count == 0\n        next: COMPLETE\n'),
      'steps.0.rules.0.when (line 6): state predicates (when) are not supported',
    ],
    [
      'when() in a condition',
      flow('    rules:\n      - condition: approved && when(x > 0)\n        next: COMPLETE\n'),
      'steps.0.rules.0.condition (line 6): state predicates (when) are not supported',
    ],
    [
      'arpeggio',
      flow('    arpeggio:\n      source: csv\n'),
      'steps.0.arpeggio (line 6): arpeggio (data-driven batch) steps are not supported',
    ],
    [
      "a team leader mode (TAKT's Finding Contract)",
      flow('    team_leader:\n      mode: finding_contract_fix\n'),
      "steps.0.team_leader.mode (line 6): team_leader.mode finding_contract_fix is not supported (a team leader mode drives TAKT's Finding Contract ledger",
    ],
    [
      'a team leader field MAESTRO does not know',
      flow('    team_leader:\n      max_parts: 2\n      colour: red\n'),
      'steps.0.team_leader (line 6): Unrecognized key: "colour"',
    ],
    [
      'team_leader with more than 3 parts (TAKT caps it at 3)',
      flow('    team_leader:\n      max_parts: 4\n'),
      'steps.0.team_leader.max_parts (line 6): Too big',
    ],
    [
      'team_leader and parallel together',
      flow('    parallel: []\n    team_leader: {}\n'),
      'steps.0.team_leader (line 6): parallel and team_leader cannot be used together',
    ],
    [
      'a command quality gate',
      flow('    quality_gates:\n      - type: command\n        command: make\n'),
      'steps.0.quality_gates.0 (line 6): command quality gates are not supported',
    ],
    [
      'finding_contract',
      flow('', 'finding_contract:\n  ledger_path: x\n'),
      "finding_contract (line 3): TAKT's Finding Contract",
    ],
    [
      'a companion that is not there',
      flow('    companion: [testing-review-companion]\n'),
      'steps.0.companion (line 5): no companion named testing-review-companion (looked for',
    ],
    [
      'a workflow that needs the Finding Contract',
      flow('', 'subworkflow:\n  callable: false\n  requires_finding_contract: true\n'),
      "subworkflow.requires_finding_contract (line 4): this workflow needs TAKT's Finding Contract",
    ],
    [
      'an unknown field',
      flow('    colour: blue\n'),
      'steps.0.colour (line 5): colour is not a TAKT field MAESTRO knows',
    ],
    [
      'a {context:} placeholder',
      flow('    instruction: "Use {context:route.pr.number}"\n'),
      "steps.0 (line 3): the placeholder {context:route.pr.number} needs TAKT's system steps",
    ],
  ])('%s', (_what, text, message) => {
    const error = errorOf(layout({ 'w.yaml': text }));
    expect(error.file).toMatch(/w\.yaml$/);
    expect(error.message).toContain(`TAKT piece: ${message}`);
  });

  it('a facet name that resolves to nothing is an error naming the field, its line and where it looked', () => {
    const dir = layout({ 'w.yaml': flow('    instruction: planning\n') });
    expect(errorOf(dir).message).toBe(
      `TAKT piece: steps.0.instruction (line 5): no instruction facet named planning (looked for ${path.join(dir, '..', 'facets', 'instructions', 'planning.md')}, ${path.join(dir, '..', 'instructions', 'planning.md')})`,
    );
  });

  it('a section map path that does not exist, and an absolute path, are errors', () => {
    const missing = layout({
      'w.yaml': `name: w\npersonas:\n  coder: ../facets/personas/nobody.md\nsteps:\n  - name: a\n    persona: coder\n`,
    });
    expect(errorOf(missing).message).toMatch(
      /^TAKT piece: steps\.0\.persona \(line 6\): persona coder → \.\.\/facets\/personas\/nobody\.md: .*nobody\.md not found$/,
    );
    const absolute = layout({ 'w.yaml': flow('    policy: /etc/passwd.md\n') });
    expect(errorOf(absolute).message).toContain(
      'steps.0.policy (line 5): policy /etc/passwd.md: only files beside the piece are read',
    );
  });

  it('workflow_call: a missing reference names the file and line; calls in a circle and calls to a non-callable workflow are refused', () => {
    const missing = layout({ 'w.yaml': `name: w\nsteps:\n  - name: a\n    kind: workflow_call\n    call: nowhere\n` });
    expect(errorOf(missing).message).toMatch(
      /^TAKT piece: steps\.0\.call \(line 5\): call nowhere: no workflow named nowhere in this catalog/,
    );
    const callable = (name: string, calls: string) =>
      `name: ${name}\nsubworkflow:\n  callable: true\nsteps:\n  - name: s\n    kind: workflow_call\n    call: ${calls}\n`;
    const circle = layout({
      'w.yaml': `name: w\nsteps:\n  - name: a\n    kind: workflow_call\n    call: x\n`,
      'x.yaml': callable('x', 'y'),
      'y.yaml': callable('y', 'x'),
    });
    expect(errorOf(circle).message).toContain(
      'y.yaml: steps.0.call (line 7): call x: workflows call each other in a circle',
    );
    const plain = layout({
      'w.yaml': `name: w\nsteps:\n  - name: a\n    kind: workflow_call\n    call: z\n`,
      'z.yaml': flow(''),
    });
    expect(errorOf(plain).message).toMatch(/steps\.0\.call \(line 5\): call z: .*z\.yaml is not callable/);
  });

  it('uses: a missing fragment, a missing binding, and a problem inside a fragment name the fragment', () => {
    expect(errorOf(layout({ 'w.yaml': `name: w\nsteps:\n  - name: a\n    uses: nothing\n` })).message).toMatch(
      /^TAKT piece: steps\.0\.uses \(line 4\): uses nothing: no step fragment named nothing/,
    );
    expect(errorOf(layout({ 'w.yaml': `name: w\nsteps:\n  - name: a\n    uses: implement\n` })).message).toContain(
      'steps.0.uses (line 4): with: fragment implement needs its parameter impl_policy',
    );
    const broken = layout(
      { 'w.yaml': `name: w\nsteps:\n  - name: a\n    uses: odd\n` },
      { 'steps/odd.yaml': 'name: odd\npersona: coder\narpeggio: {}\n' },
    );
    expect(errorOf(broken).message).toMatch(
      /steps\.0\.arpeggio \(line 3\): arpeggio \(data-driven batch\) steps are not supported \(from .*steps\/odd\.yaml\)$/,
    );
  });

  it('a rule naming a step that does not exist names the rule', () => {
    const error = errorOf(
      layout({ 'w.yaml': 'name: t\nsteps:\n  - name: a\n    rules:\n      - condition: x\n        next: b\n' }),
    );
    expect(error.message).toBe('TAKT piece: steps.0.rules.0.next (line 6): names no step of this workflow (steps: a)');
  });

  it('P1.29 in a catalog a refused file is listed under errors; the other workflows still load', () => {
    const dir = layout({
      'good.yaml': flow('    instruction: plan\n'),
      'bad.yaml': flow('    arpeggio: {}\n'),
    });
    const { pieces, errors } = new PieceCatalog(dir).load();
    expect(pieces.map((p) => p.id)).toEqual(['good']);
    expect(errors).toEqual([{ file: path.join(dir, 'bad.yaml'), message: expect.stringContaining('arpeggio') }]);
  });
});
