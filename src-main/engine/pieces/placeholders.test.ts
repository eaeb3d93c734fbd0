import { describe, expect, it } from 'vitest';
import { fillPlaceholders, type PlaceholderValues } from './placeholders';

const values: PlaceholderValues = {
  task: 'Add a README',
  iteration: 3,
  maxSteps: 12,
  stepIteration: 2,
  previousResponse: 'The plan: one file.',
  userInputs: 'Make it short\nIn English',
  cycleCount: 4,
  report: (name) => (name === 'plan.md' ? '# Plan\n1. write it' : null),
};

describe("a step instruction's placeholders", () => {
  it('P3.12 every placeholder TAKT defines is filled from the run', () => {
    const template =
      'T={task} I={iteration}/{max_steps} S={step_iteration} P={previous_response} U={user_inputs} C={cycle_count} R={report:plan.md} D={report_dir}';
    expect(fillPlaceholders(template, values)).toBe(
      'T=Add a README I=3/12 S=2 P=The plan: one file. U=Make it short\nIn English C=4 R=# Plan\n1. write it ' +
        'D=(no report folder: each report is in this conversation, where the step that wrote it ended)',
    );
  });

  it('infinite budgets read "infinite"; a report not written yet says so; unknown braces stay', () => {
    const text = fillPlaceholders('{max_steps} {report:review.md} {Question 1} {var}', {
      ...values,
      maxSteps: Infinity,
    });
    expect(text).toBe('infinite (report review.md: not written yet in this job) {Question 1} {var}');
  });

  it('a filled-in value is never scanned again: text from the task or the model cannot inject a placeholder', () => {
    const text = fillPlaceholders('{task} / {previous_response}', {
      ...values,
      task: 'say {previous_response}',
      previousResponse: '{task}{report:plan.md}',
    });
    expect(text).toBe('say {previous_response} / {task}{report:plan.md}');
  });
});
