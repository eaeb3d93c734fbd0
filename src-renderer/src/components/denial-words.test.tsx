// Issue 23 point 6: what was written for the model never is the person's view. A denied call reads "You denied this —
// reason: …" once, from the denial's data (the step's result, else the request), in both languages, the reason shown
// as untrusted text; the Error text the model got is nowhere on screen, nor in the live stream; a Continue without
// words reads as the person's, not as the instruction written for the model.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { StepToolCall, ToolCallResult, ToolRequest } from '../../../src-shared/entities';
import type { MaestroApi, MaestroClient } from '../api/client';
import type { Locale } from '../i18n/translate';
import { NO_ENTITIES } from '../store/entities';
import { foldStreamEvent, type JobStream, type StreamEvent } from '../store/job-stream';
import { type AppStore, createAppStore, StoreContext } from '../store/store';
import { commentFixture } from '../test-fixtures';
import { ChatMessage } from './ChatMessage';
import { callState, StepTools } from './StepMessage';

const client: MaestroClient = { transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} };

function html(locale: Locale, node: React.ReactNode, setup?: (store: AppStore) => void): string {
  vi.stubGlobal('localStorage', { getItem: () => locale, setItem: () => {} });
  try {
    const store = createAppStore(client);
    setup?.(store);
    // A server render reads the store's initial state: here, the state set up above.
    const rendered = { ...store, getInitialState: store.getState };
    return renderToStaticMarkup(<StoreContext.Provider value={rendered}>{node}</StoreContext.Provider>);
  } finally {
    vi.unstubAllGlobals();
  }
}

const REASON = 'never force-push main; open a PR instead';
/** What the model got (engine/decisions.ts): never the person's view. */
const MODEL_TEXT = `Error: the user denied this call, saying: ${JSON.stringify(REASON)}. Do not repeat it; take that into account, find another way or ask the user.`;

const call = (result: ToolCallResult | null): StepToolCall => ({
  id: 'call_p',
  name: 'run_command',
  arguments: '{"command":"git push --force"}',
  result,
});
const deniedResult = (reason: string | null): ToolCallResult => ({
  ok: false,
  content: MODEL_TEXT,
  chars: MODEL_TEXT.length,
  denial: { by: 'person', reason },
});
const request = (patch: Partial<ToolRequest>): ToolRequest => ({
  id: 'r1',
  taskId: 't1',
  jobId: 'j1',
  callId: 'call_p',
  tool: 'run_command',
  summary: 'Run `git push --force`',
  status: 'denied',
  scope: null,
  createdAt: '2026-12-02T09:00:00.000Z',
  decidedAt: '2026-12-02T09:01:00.000Z',
  denyReason: REASON,
  ...patch,
});

const count = (text: string, part: string) => text.split(part).length - 1;

describe("issue 23 point 6: a denial in the person's words", () => {
  it('one line with the reason, in English and Japanese; the model’s Error text is nowhere', () => {
    const en = html('en', <StepTools jobId="j1" calls={[call(deniedResult(REASON))]} />);
    expect(en).toContain('data-status="denied"');
    expect(en).toContain('You denied this — reason: <q class="step-denial-reason" data-testid="step-denial-reason">');
    expect(count(en, REASON)).toBe(1);
    expect(count(en, 'data-testid="step-decision"')).toBe(1);
    for (const page of [en, html('ja', <StepTools jobId="j1" calls={[call(deniedResult(REASON))]} />)]) {
      expect(page).not.toContain('Do not repeat');
      expect(page).not.toContain('the user denied');
      expect(page).not.toContain('data-testid="step-result"');
    }
    const ja = html('ja', <StepTools jobId="j1" calls={[call(deniedResult(REASON))]} />);
    expect(ja).toContain('あなたが拒否しました — 理由: ');
    expect(count(ja, REASON)).toBe(1);
  });

  it('without a reason: "You denied this." alone', () => {
    const en = html('en', <StepTools jobId="j1" calls={[call(deniedResult(null))]} />);
    expect(en).toContain('>You denied this.</span>');
    expect(en).not.toContain('reason');
  });

  it('the reason is untrusted text: a hidden character in it is shown as an escape, not obeyed', () => {
    const hostile = 'fine\u202Eevil';
    const en = html('en', <StepTools jobId="j1" calls={[call(deniedResult(hostile))]} />);
    expect(en).toContain('⟨U+202E⟩');
    expect(en).not.toContain('\u202E');
  });

  it('a denial known from its request alone (a log written before the flag) still hides the model’s text', () => {
    const old: ToolCallResult = { ok: false, content: MODEL_TEXT, chars: MODEL_TEXT.length };
    const requests = { taskId: 't1', tool: [request({})], package: [], mcp: [] };
    const setup = (store: AppStore) => store.setState({ entities: { ...NO_ENTITIES, requests } });
    const en = html('en', <StepTools jobId="j1" calls={[call(old)]} />, setup);
    expect(en).toContain('You denied this — reason: ');
    expect(count(en, REASON)).toBe(1);
    expect(en).not.toContain('Do not repeat');
    expect(callState(call(old), request({}), true)).toBe('denied');
    expect(callState(call(deniedResult(null)), undefined, true)).toBe('denied');
    // A failed call that was not denied keeps its result on screen.
    expect(callState(call({ ok: false, content: 'Error: exit 1', chars: 13 }), undefined, true)).toBe('error');
  });

  it('an Auto Prompter rule: its label and reason, not the Error text', () => {
    const content = 'Error: the Auto Prompter denied this run_command call (rule no-rm): Do not delete files.';
    const ruled: ToolCallResult = {
      ok: false,
      content,
      chars: content.length,
      denial: { by: 'rule', rule: 'no-rm', reason: 'Do not delete files.' },
    };
    const en = html('en', <StepTools jobId="j1" calls={[call(ruled)]} />);
    expect(en).toContain('The Auto Prompter denied this (rule no-rm) — reason: ');
    expect(en).toContain('data-denied-by="rule"');
    expect(en).not.toContain('Error: the Auto Prompter');
    expect(html('ja', <StepTools jobId="j1" calls={[call(ruled)]} />)).toContain('ルール no-rm で拒否しました');
  });

  it('the live stream adds no row and no preview for a call denied while the job was parked', () => {
    const finished = (denied: boolean) =>
      ({
        seq: 1,
        ts: '',
        taskId: 't1',
        jobId: 'j1',
        type: 'tool.finished',
        callId: 'call_p',
        name: 'run_command',
        ok: false,
        preview: MODEL_TEXT,
        ...(denied ? { denial: { by: 'person', reason: REASON } } : {}),
      }) as StreamEvent;
    const resumed: JobStream = { jobId: 'j1', llm: 'waiting', attempt: 1, movement: null, turns: [] };
    expect(foldStreamEvent(resumed, finished(true)).turns).toEqual([]);
    // The same event without the flag (an ordinary failure) is shown, so the check above is not vacuous.
    expect(foldStreamEvent(resumed, finished(false)).turns[0]?.toolCalls[0]?.preview).toBe(MODEL_TEXT);
  });

  it('a Continue without words reads as the person’s, not as the instruction written for the model', () => {
    const handoff = commentFixture('c9', 9, {
      author: 'user',
      kind: 'handoff',
      body: 'Continue the task from where the previous job left off.',
      notice: { code: 'continued' },
    });
    const en = html('en', <ChatMessage comment={handoff} />);
    expect(en).toContain('Go on from where it stopped.');
    expect(en).toContain('>Continue</span>');
    expect(en).not.toContain('previous job');
    expect(html('ja', <ChatMessage comment={handoff} />)).toContain('止まったところから続けてください。');
  });
});
