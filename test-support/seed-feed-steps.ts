// Test support: a seeded conversation as the chat now shows it (seed-feed.ts with `steps`): about half comments and
// half recorded steps, in finished jobs of JOB_ENTRIES entries. Each job opens with the person's comment (its Invoke
// and UserTurn in the log) and ends with the agent's result, a question or an error; between them the agent's
// AgentTurns — log entries with a body as RunLog writes it, their LlmCalls, and a ToolTurn answering each call by
// agent_turn_seq: reads, commands, searches and edits with their diffs — alternate with interjections and notes.
import type { StepBody } from '../src-main/db/repos/chat-pages';
import type { Store } from '../src-main/db/store';
import { unifiedDiff } from '../src-main/tools/diff';
import { type CommentAuthor, type CommentKind, STEP_RESULT_CHARS } from '../src-shared/entities';

/** Entries (comments and steps) per job; the last job takes what is left. */
export const JOB_ENTRIES = 50;

/** The movement of the default piece, where every seeded step runs. */
const MOVEMENT = 'work';

export interface SeededItems {
  /** Every chat item's id, a comment's or a step's (`step:<seq>`), oldest first. */
  itemIds: string[];
  commentIds: string[];
  jobCount: number;
}

type Ending = 'result' | 'question' | 'error';

interface Call {
  name: string;
  args: Record<string, unknown>;
  result: string;
  ok: boolean;
}

/**
 * Writes `entries` chat items of task `taskId` a second apart from `start`, with `body(i)` the text of comment `i`.
 * Call inside a transaction. The last job always ends with a result, so the task is idle and its last item is that
 * result.
 */
export function seedSteppedConversation(
  store: Store,
  taskId: string,
  start: number,
  entries: number,
  body: (i: number) => string,
): SeededItems {
  const itemIds: string[] = [];
  const commentIds: string[] = [];
  const at = (i: number) => start + i * 1000;
  let asked = false;
  let jobCount = 0;
  for (let first = 0; first < entries; first += JOB_ENTRIES) {
    const n = Math.min(JOB_ENTRIES, entries - first);
    const last = first + n >= entries;
    const ending: Ending = last ? 'result' : jobCount % 5 === 3 ? 'question' : jobCount % 7 === 5 ? 'error' : 'result';
    const jobId = finishedJob(store, taskId, at(first), at(first + n - 1), ending);
    jobCount++;
    const log = { taskId, jobId };
    const invokeSeq = store.logEntries.append({ ...log, kind: 'Invoke', invokeKind: 'UserSend' }, at(first));
    const comment = (i: number, kind: CommentKind, author: CommentAuthor) => {
      const id = store.comments.insert({ taskId, jobId, kind, author, body: body(i) }, at(i)).id;
      commentIds.push(id);
      itemIds.push(id);
    };
    const step = (i: number, content: StepContent) => {
      itemIds.push(`step:${writeStep(store, { ...log, invokeSeq }, at(i), content)}`);
    };

    const opening: CommentKind = first === 0 ? 'instruction' : asked ? 'answer' : 'comment';
    store.logEntries.append({ ...log, kind: 'UserTurn', invokeSeq, body: { text: body(first) } }, at(first));
    comment(first, opening, 'user');
    for (let k = 1; k < n; k++) {
      const i = first + k;
      if (k === n - 1) {
        if (ending === 'error') comment(i, 'error', 'system');
        else comment(i, ending, 'agent');
      } else if (k === n - 2) {
        step(i, closingStep(i, ending));
      } else if (k % 2 === 1) {
        step(i, workStep(i));
      } else {
        const note = k % 6 === 4;
        comment(i, note ? 'comment' : 'interjection', note ? 'system' : 'user');
      }
    }
    asked = ending === 'question';
  }
  return { itemIds, commentIds, jobCount };
}

function finishedJob(store: Store, taskId: string, from: number, to: number, ending: Ending): string {
  const queued = store.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' }, from);
  const owner = 'seed';
  const running = { workerId: owner, attempt: 1, pendingInvoke: null };
  store.jobs.transition(queued.id, 'queued', 'running', running, { now: from });
  if (ending === 'error') {
    store.jobs.transition(queued.id, 'running', 'failed', { error: 'seeded: the model stopped' }, { owner, now: to });
  } else {
    store.jobs.transition(queued.id, 'running', 'succeeded', { result: 'seeded' }, { owner, now: to });
  }
  return queued.id;
}

interface StepContent {
  text: string;
  reasoning: string;
  calls: Call[];
  error?: string;
  /** LlmCalls made for the turn: more than one is a retry. */
  llmCalls: number;
}

/** The AgentTurn entry (the body RunLog.endAgentTurn writes), its LlmCalls, and a ToolTurn per call; its seq. */
function writeStep(
  store: Store,
  log: { taskId: string; jobId: string; invokeSeq: number },
  ts: number,
  content: StepContent,
): number {
  const toolCalls = content.calls.map((c, k) => ({
    id: `call_seed_${ts}_${k}`,
    name: c.name,
    arguments: JSON.stringify(c.args),
  }));
  const stepBody: StepBody = {
    movement: MOVEMENT,
    depth: 0,
    text: content.text,
    reasoning: content.reasoning,
    toolCalls,
    ...(content.error ? { error: content.error } : {}),
  };
  const seq = store.logEntries.append({ ...log, kind: 'AgentTurn', body: stepBody }, ts);
  for (let attempt = 1; attempt <= content.llmCalls; attempt++) {
    const ok = attempt === content.llmCalls && !content.error;
    store.logEntries.append(
      {
        ...log,
        kind: 'LlmCall',
        agentTurnSeq: seq,
        body: { llmCallCount: attempt, ...(ok ? {} : { error: 'seeded: 503 from the server' }) },
        llmCall: {
          attempt,
          outcome: ok ? 'ok' : 'retryable_error',
          latencyMs: 800 + (ts % 700),
          ttftMs: 200 + (ts % 150),
          promptTokens: ok ? 4_000 + (ts % 3_000) : 0,
          completionTokens: ok ? 60 + (ts % 400) : 0,
          cachedPromptTokens: ok ? 3_500 : 0,
        },
      },
      ts,
    );
  }
  content.calls.forEach((c, k) => {
    const body = {
      tool_call_id: toolCalls[k]?.id,
      name: c.name,
      result: c.result.slice(0, STEP_RESULT_CHARS),
      chars: c.result.length,
      ok: c.ok,
    };
    store.logEntries.append({ ...log, kind: 'ToolTurn', agentTurnSeq: seq, body }, ts);
  });
  return seq;
}

/** The turn before the job's last comment: `complete` with the answer or the question, or a failed generation. */
function closingStep(i: number, ending: Ending): StepContent {
  if (ending === 'error')
    return { text: '', reasoning: '', calls: [], error: 'seeded: 503 from the server', llmCalls: 3 };
  const status = ending === 'question' ? 'needs_user_input' : 'success';
  const message = ending === 'question' ? `Entry #${i}: which file next?` : `Entry #${i}: done, see the diff above.`;
  const call: Call = { name: 'complete', args: { status, message }, result: 'Completed.', ok: true };
  return { text: '', reasoning: '', calls: [call], llmCalls: 1 };
}

/** An AgentTurn of the work: a line or a paragraph of Markdown, sometimes reasoning, one or two tool calls. */
function workStep(i: number): StepContent {
  const file = `src/module${i % 37}.ts`;
  const calls: Call[] = [];
  switch (i % 5) {
    case 0:
      calls.push(readFile(file, i));
      break;
    case 1:
      calls.push(command(`npm test -- ${file}`, i % 3 !== 0, i));
      break;
    case 2:
      calls.push(editFile(file, i));
      break;
    case 3:
      calls.push(grep(`step${i % 13}`, i), readFile(file, i));
      break;
    default:
      calls.push(editFile(file, i), command('npx tsc --noEmit', true, i));
  }
  const text =
    i % 4 === 0
      ? `Entry #${i}: the function in \`${file}\` sums **every** value; the tests expect the even ones only.\n\n` +
        `- read it\n- change the filter\n- run the tests`
      : `Entry #${i}: next, ${calls.map((c) => `\`${c.name}\``).join(' and ')}.`;
  const reasoning = i % 3 === 0 ? `The failing case is the odd input of entry ${i}; check the filter first.` : '';
  return { text, reasoning, calls, llmCalls: i % 11 === 0 ? 2 : 1 };
}

function source(i: number, even: boolean): string {
  const lines = [
    `// Module ${i % 37}: sums of the inputs.`,
    `export function step${i}(input: number[]): number {`,
    even
      ? '  return input.filter((x) => x % 2 === 0).reduce((a, b) => a + b, 0);'
      : '  return input.reduce((a, b) => a + b, 0);',
    '}',
    '',
  ];
  for (let k = 0; k < 12; k++) lines.push(`export const limit${k} = ${k * i};`);
  return `${lines.join('\n')}\n`;
}

function readFile(path: string, i: number): Call {
  return { name: 'read_file', args: { path }, result: source(i, false), ok: true };
}

function editFile(path: string, i: number): Call {
  const old = '  return input.reduce((a, b) => a + b, 0);';
  const next = '  return input.filter((x) => x % 2 === 0).reduce((a, b) => a + b, 0);';
  const diff = unifiedDiff(path, source(i, false), source(i, true));
  return {
    name: 'edit_file',
    args: { path, old_string: old, new_string: next },
    result: `Edited ${path}: replaced 1 occurrence\n${diff}`,
    ok: true,
  };
}

function command(line: string, passes: boolean, i: number): Call {
  const output = passes
    ? ` ✓ src/module${i % 37}.test.ts (4 tests) 12ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)\n`
    : ` ✗ src/module${i % 37}.test.ts > sums the even values\n   expected 6 to be 4\n\n Tests  1 failed | 3 passed (4)\n`;
  return {
    name: 'run_command',
    args: { command: line, cwd: '.' },
    result: `Exit code: ${passes ? 0 : 1}\n${output}`,
    // A command that ran is an answer whatever its exit code (run_command's result).
    ok: true,
  };
}

function grep(pattern: string, i: number): Call {
  const hits = Array.from(
    { length: 1 + (i % 6) },
    (_, k) => `src/module${(i + k) % 37}.ts:${2 + k}: ${pattern}(input)`,
  );
  return { name: 'grep', args: { pattern }, result: hits.join('\n'), ok: true };
}
