// What MCP servers ask the person while one of their tool calls runs: a form (elicitation) or leave to ask the task's
// model (sampling). Held in memory, not in the DB, because each lives exactly as long as the call that asked: the call
// is in flight on the server's connection, so the job cannot park (a park ends the engine's run and with it the call's
// request; a resume could not answer a request the server already gave up on). The job waits in place instead, the
// card shown in the task, for at most the wait's bound; then the server gets `cancel` (a form) or a refusal (sampling),
// as it would from a person who walked away. A host that stops ends the call too, so nothing outlives what is kept here.
import { randomUUID } from 'node:crypto';
import type { McpPrompt } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { checkAnswer } from './elicitation';

/** How long a server's question waits for the person by default before it is cancelled. */
export const PROMPT_WAIT_MS = 10 * 60_000;

export type PromptAction = 'accept' | 'decline' | 'cancel';
export type PromptValue = string | number | boolean | string[];

/** How a question ended: the person's answer, or `timeout` / `aborted` (the job ended) with action `cancel`. */
export interface PromptAnswer {
  action: PromptAction;
  content?: Record<string, PromptValue>;
  by: 'person' | 'timeout' | 'aborted';
}

type NewPrompt = McpPrompt extends infer P
  ? P extends McpPrompt
    ? Omit<P, 'id' | 'createdAt' | 'expiresAt'>
    : never
  : never;

export type PromptListener = (prompt: McpPrompt, open: boolean) => void;

export class McpPrompts {
  private readonly open = new Map<string, { prompt: McpPrompt; settle: (answer: PromptAnswer) => void }>();
  private readonly listeners = new Set<PromptListener>();

  constructor(private readonly waitMs: () => number = () => PROMPT_WAIT_MS) {}

  /** Called when a question opens and when it closes (answered, timed out, its job ended). */
  listen(listener: PromptListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shows the question and waits for the person, at most the wait's bound, or until `signal` aborts. */
  ask(question: NewPrompt, signal: AbortSignal): Promise<PromptAnswer> {
    const waitMs = this.waitMs();
    const now = Date.now();
    const prompt = {
      ...question,
      id: randomUUID(),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + waitMs).toISOString(),
    } as McpPrompt;
    return new Promise<PromptAnswer>((resolve) => {
      const settle = (answer: PromptAnswer) => {
        if (!this.open.delete(prompt.id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.tell(prompt, false);
        resolve(answer);
      };
      const onAbort = () => settle({ action: 'cancel', by: 'aborted' });
      const timer = setTimeout(() => settle({ action: 'cancel', by: 'timeout' }), waitMs);
      timer.unref();
      this.open.set(prompt.id, { prompt, settle });
      this.tell(prompt, true);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The questions waiting in a task, oldest first. */
  list(taskId: string): McpPrompt[] {
    return [...this.open.values()].map((o) => o.prompt).filter((p) => p.taskId === taskId);
  }

  /**
   * The person's answer: a form's content is checked against its fields first (a bad one changes nothing and names
   * each field); a question that is no longer open (answered, timed out, its job ended) is not found.
   */
  answer(taskId: string, promptId: string, action: PromptAction, content?: Record<string, PromptValue>): McpPrompt {
    const open = this.open.get(promptId);
    if (!open || open.prompt.taskId !== taskId) {
      throw new MaestroError(
        'not_found',
        `MCP question ${promptId} is not waiting in task ${taskId} (answered, timed out or its job ended)`,
      );
    }
    const { prompt } = open;
    if (prompt.kind === 'sample' && action === 'cancel') {
      throw new MaestroError('invalid_input', "action: a sampling request is accepted or declined, not 'cancel'", [
        { path: ['action'], message: "accept or decline, not 'cancel'" },
      ]);
    }
    if (prompt.kind === 'elicit' && action === 'accept') {
      const checked = checkAnswer(prompt.fields, content ?? {});
      if (!checked.ok) {
        const text = checked.issues.map((i) => `${i.field} ${i.message}`).join('; ');
        throw new MaestroError(
          'invalid_input',
          `content: ${text}`,
          checked.issues.map((i) => ({ path: ['content', i.field], message: i.message })),
        );
      }
      open.settle({ action, content: checked.content, by: 'person' });
      return prompt;
    }
    open.settle({ action, by: 'person' });
    return prompt;
  }

  private tell(prompt: McpPrompt, open: boolean): void {
    for (const listener of this.listeners) {
      try {
        listener(prompt, open);
      } catch (error) {
        console.error('an MCP question listener failed:', error);
      }
    }
  }
}
