// What a movement's instruction says when it starts: its template with the placeholders filled from this job — the
// task, the movement counts, what the previous movement ended with, the reports written so far and what the user said.
// It goes in a user message (the first one, or the note that enters the movement), never in the system message, so the
// system message stays the same for every job of the piece.
import type { JobJournal } from './job-journal';
import { fillPlaceholders } from './pieces/placeholders';
import type { MovementDefinition, PieceDefinition } from './pieces/schema';

const USER_KINDS = new Set(['comment', 'answer', 'interjection']);

export class MovementBriefs {
  private previous = '';
  private readonly reports = new Map<string, string>();

  constructor(
    private readonly journal: JobJournal,
    private readonly piece: PieceDefinition,
  ) {}

  /** What the last movement ended with (`{previous_response}`). */
  get previousResponse(): string {
    return this.previous;
  }

  /** Records what `movement` ended with: the next one's `{previous_response}`, and its reports. */
  ended(movement: MovementDefinition, output: string): void {
    this.previous = output;
    for (const name of movement.reports ?? []) this.reports.set(name, output);
  }

  /** The movement's instruction as the model reads it now; '' when it has none. */
  instruction(movement: MovementDefinition, counts: { iteration: number; stepIteration: number; cycleCount?: number }) {
    const template = movement.instruction ?? '';
    if (!template) return '';
    const userInputs = this.journal
      .jobComments()
      .filter((c) => c.author === 'user' && USER_KINDS.has(c.kind))
      .map((c) => c.body)
      .join('\n');
    return fillPlaceholders(template, {
      task: this.journal.task.instruction,
      iteration: counts.iteration,
      maxSteps: this.piece.maxMovements,
      stepIteration: counts.stepIteration,
      previousResponse: this.previous,
      userInputs,
      cycleCount: counts.cycleCount ?? 0,
      report: (name) => this.reports.get(name) ?? null,
    });
  }
}

/** `text` followed by a movement's filled instruction, when it has one. */
export const withInstruction = (text: string, movement: MovementDefinition, instruction: string): string =>
  instruction ? `${text}\n\n# Step instruction (${movement.name})\n${instruction}` : text;
