// The message of the workspace commit a succeeded job makes (P2.21): the task's title as the subject, the job's
// result as the body, and the trailers that say MAESTRO made it (`git log --format=%(trailers)` reads them back).

/** A subject longer than this is cut (git's tools show about this much on one line). */
export const SUBJECT_MAX = 100;
/** A result longer than this is cut in the body (the whole result stays in the task). */
export const BODY_MAX = 8000;

export interface CommitMessageInput {
  title: string;
  result: string | null;
  taskId: string;
  jobId: string;
}

/** Without the control characters git or a terminal would trip on (NUL ends a message); tab and newline kept. */
function withoutControls(text: string): string {
  return Array.from(text)
    .filter((c) => {
      const code = c.charCodeAt(0);
      return c === '\t' || c === '\n' || (code >= 0x20 && code !== 0x7f);
    })
    .join('');
}

function cut(text: string, max: number, mark: string): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('').trimEnd()}${mark}`;
}

/** One line: the title's lines joined, runs of white space as one space, cut at SUBJECT_MAX. */
function subject(input: CommitMessageInput): string {
  const line = withoutControls(input.title.replace(/\s+/g, ' ')).trim();
  return cut(line || `MAESTRO job ${input.jobId}`, SUBJECT_MAX, '…');
}

/** The result as written, without carriage returns or control characters, trimmed and cut at BODY_MAX. */
function body(result: string | null): string {
  const text = withoutControls((result ?? '').replace(/\r\n?/g, '\n')).trim();
  return cut(text, BODY_MAX, '\n\n[… the result is cut here; the whole of it is in the task]');
}

/** A trailer's value is one token of an id: anything else would break the trailer block or add a trailer. */
function trailerValue(name: string, value: string): string {
  if (!/^[\w.:-]+$/.test(value)) throw new Error(`commit message: the ${name} "${value}" is not a plain id`);
  return value;
}

/**
 * The whole message. The trailers are written as the last paragraph, after a blank line, so git's trailer parser
 * reads exactly them (it only ever looks at the last paragraph, whatever the result's own last lines look like).
 */
export function jobCommitMessage(input: CommitMessageInput): string {
  const trailers = `MAESTRO-Task: ${trailerValue('task id', input.taskId)}\nMAESTRO-Job: ${trailerValue('job id', input.jobId)}\n`;
  const text = body(input.result);
  return text ? `${subject(input)}\n\n${text}\n\n${trailers}` : `${subject(input)}\n\n${trailers}`;
}
