// What a streamed AgentTurn shows: its `complete` call is the agent's answer, so its message (read from the arguments
// as they arrive) joins the turn's text as Markdown instead of showing as a tool call with JSON. A `complete` the
// engine refused stays listed as a failed call, with the reason, beside the text it had brought.

import type { StreamToolCall, StreamTurn } from './job-stream';
import { readPartialStringField } from './partial-json';

/** The engine tool that ends a task; its `message` is the answer, the question or the reason it failed. */
export const COMPLETE_TOOL = 'complete';

export interface TurnView {
  /** The turn's streamed text, then the answer. */
  text: string;
  /** The calls to list: all but the answering `complete` calls. */
  toolCalls: readonly StreamToolCall[];
}

/** Turns never change once made (the fold replaces them), so a view is worked out once per turn. */
const VIEWS = new WeakMap<StreamTurn, TurnView>();

export function turnView(turn: StreamTurn): TurnView {
  let view = VIEWS.get(turn);
  if (!view) {
    view = makeView(turn);
    VIEWS.set(turn, view);
  }
  return view;
}

function makeView(turn: StreamTurn): TurnView {
  const answers = turn.toolCalls.filter((c) => c.name === COMPLETE_TOOL);
  if (answers.length === 0) return { text: turn.text, toolCalls: turn.toolCalls };
  const texts = [turn.text.trim(), ...answers.map((c) => readPartialStringField(c.arguments, 'message') ?? '')];
  return {
    text: texts.filter((t) => t.length > 0).join('\n\n'),
    toolCalls: turn.toolCalls.filter((c) => c.name !== COMPLETE_TOOL || c.status === 'error'),
  };
}
