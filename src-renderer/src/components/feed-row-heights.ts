// Estimated heights of the feed's rows, for rows never measured yet (the virtualized feed measures each once shown).
import type { StepToolCall } from '../../../src-shared/entities';
import type { FeedRow } from './feed-rows';

/** Characters of body text per rendered line at the feed's usual width; a guess, corrected once a row is measured. */
const CHARS_PER_LINE = 90;
const LINE_PX = 20;
/** Row padding, message border and padding, the header line. */
const MESSAGE_CHROME_PX = 12 + 18 + 24;
/** A fenced code block's bar and its box. */
const CODE_BLOCK_PX = 44;

/** Estimated rendered lines of Markdown text: wrapped lines, the blank lines between blocks, code blocks' chrome. */
function textPx(text: string): number {
  let lines = 0;
  let fences = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const length = end - start;
    if (text.startsWith('```', start)) fences++;
    lines += Math.max(1, Math.ceil(length / CHARS_PER_LINE));
    start = end + 1;
  }
  return lines * LINE_PX + Math.ceil(fences / 2) * CODE_BLOCK_PX;
}

/** Diff lines DiffView shows before "Show all", the height of one, and its header and toggle. */
const DIFF_FOLDED_LINES = 40;
const DIFF_LINE_PX = 18;
const DIFF_CHROME_PX = 26;
const DIFF_TOGGLE_PX = 36;

/** A call's block: its line, and for an edit the diff below it as DiffView first shows it (folded). */
function callPx(call: StepToolCall): number {
  const result = call.result;
  if (!result?.ok || (call.name !== 'edit_file' && call.name !== 'write_file')) return 36;
  const text = result.display ?? result.content;
  // Summary, `---` and `+++` lines, then the hunks: counted only as far as the fold.
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && lines < DIFF_FOLDED_LINES + 4; i = text.indexOf('\n', i + 1)) lines++;
  const body = Math.max(0, lines + 1 - 3);
  const shown = Math.min(body, DIFF_FOLDED_LINES);
  return 36 + LINE_PX + DIFF_CHROME_PX + shown * DIFF_LINE_PX + (body > DIFF_FOLDED_LINES ? DIFF_TOGGLE_PX : 0);
}

export function estimateRowHeight(row: FeedRow): number {
  switch (row.kind) {
    case 'older':
      return 44;
    case 'comment':
      return MESSAGE_CHROME_PX + textPx(row.comment.body);
    case 'invoke':
      return 36;
    case 'movement':
    case 'rewound':
      return 32;
    case 'files':
      return MESSAGE_CHROME_PX + row.files.length * 30 + (row.partial ? LINE_PX : 0);
    case 'step': {
      const { step } = row;
      return (
        MESSAGE_CHROME_PX +
        (row.text ? textPx(row.text) : 0) +
        (row.turnStart && step.reasoning ? LINE_PX : 0) +
        (row.turnStart && step.error ? LINE_PX * 2 : 0) +
        row.toolCalls.reduce((px, call) => px + callPx(call), 0)
      );
    }
    case 'turn': {
      const { turn } = row;
      return (
        MESSAGE_CHROME_PX +
        (row.text ? textPx(row.text) : 0) +
        (row.turnStart && turn.reasoning ? LINE_PX : 0) +
        (row.turnStart && turn.discarded > 0 ? LINE_PX : 0) +
        row.toolCalls.length * 28
      );
    }
    default: {
      const unknown: never = row;
      throw new Error(`unknown feed row ${JSON.stringify(unknown)}`);
    }
  }
}
