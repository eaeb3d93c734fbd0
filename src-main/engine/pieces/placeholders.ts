// Fills the placeholders of a step's instruction when its movement starts (TAKT's {task}, {previous_response},
// {iteration}, …). One pass over the template: a filled-in value is never scanned again, so text from the task, the
// model or the user cannot smuggle in another placeholder. Unknown braces (`{Question 1}`) stay as they are.

export interface PlaceholderValues {
  /** The task's instruction. */
  task: string;
  /** Movements entered in this job, this one included. */
  iteration: number;
  /** The piece's movement budget (Infinity: none). */
  maxSteps: number;
  /** How often this movement has been entered in this job, this time included. */
  stepIteration: number;
  /** What the previous movement ended with ('' for the first). */
  previousResponse: string;
  /** What the user said during this job (follow-ups, answers, messages), oldest first. */
  userInputs: string;
  /** For a loop check's judge: how often the cycle ran. */
  cycleCount: number;
  /** The latest report of that name in this job, or null when none was written yet. */
  report(name: string): string | null;
}

const PLACEHOLDER =
  /\{(task|iteration|max_steps|step_iteration|previous_response|user_inputs|report_dir|cycle_count)\}|\{report:([^{}\n]+)\}/g;

const NO_REPORT_DIR = '(no report folder: each report is in this conversation, where the step that wrote it ended)';

export function fillPlaceholders(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (_whole, name: string | undefined, report: string | undefined) => {
    if (report !== undefined) {
      const file = report.trim();
      return values.report(file) ?? `(report ${file}: not written yet in this job)`;
    }
    switch (name) {
      case 'task':
        return values.task;
      case 'iteration':
        return String(values.iteration);
      case 'max_steps':
        return Number.isFinite(values.maxSteps) ? String(values.maxSteps) : 'infinite';
      case 'step_iteration':
        return String(values.stepIteration);
      case 'previous_response':
        return values.previousResponse;
      case 'user_inputs':
        return values.userInputs;
      case 'report_dir':
        return NO_REPORT_DIR;
      default:
        return String(values.cycleCount);
    }
  });
}
