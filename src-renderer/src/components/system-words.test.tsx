// Words the main process makes, in the person's language: a system comment with a notice (a cancel, a step in the
// browser) and the result of starting a subtask are worded by the UI from codes and parameters, not shown in English.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Comment, StepToolCall } from '../../../src-shared/entities';
import type { MaestroApi, MaestroClient } from '../api/client';
import type { Locale } from '../i18n/translate';
import { createAppStore, StoreContext } from '../store/store';
import { commentFixture } from '../test-fixtures';
import { ChatMessage } from './ChatMessage';
import { StepTools } from './StepMessage';

const client: MaestroClient = { transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} };

/** Server rendering reads the store's initial state: the locale is the stored one when the store is made. */
function html(locale: Locale, node: React.ReactNode): string {
  vi.stubGlobal('localStorage', { getItem: () => locale, setItem: () => {} });
  try {
    const store = createAppStore(client);
    return renderToStaticMarkup(<StoreContext.Provider value={store}>{node}</StoreContext.Provider>);
  } finally {
    vi.unstubAllGlobals();
  }
}

const system = (patch: Partial<Comment>) => commentFixture('c1', 1, { author: 'system', kind: 'comment', ...patch });

describe('system words in both languages', () => {
  it('a cancel, with and without subtasks, from its notice', () => {
    const alone = system({ body: 'Cancelled.', notice: { code: 'cancelled', subtasks: 0 } });
    const family = system({
      body: 'Cancelled. 2 subtask job(s) cancelled with it.',
      notice: { code: 'cancelled', subtasks: 2 },
    });
    expect(html('en', <ChatMessage comment={alone} />)).toContain('<p>Cancelled.</p>');
    expect(html('ja', <ChatMessage comment={alone} />)).toContain('<p>キャンセルしました。</p>');
    const ja = html('ja', <ChatMessage comment={family} />);
    expect(ja).toContain('サブタスク 2 件');
    expect(ja).not.toContain('subtask job(s)');
  });

  it('a step in the browser names the instruction and the page in the chosen language', () => {
    const step = system({
      body: 'In your browser, please: Sign in (https://example.test/login) — then reply here.',
      notice: { code: 'browser_step', instruction: 'Sign in', url: 'https://example.test/login' },
    });
    const ja = html('ja', <ChatMessage comment={step} />);
    expect(ja).toContain('ブラウザーで次の操作をしてください: Sign in (https://example.test/login)');
    expect(ja).not.toContain('In your browser');
  });

  it('an MCP server waiting for a token, or in trouble, by name; the trouble’s detail folded in its own words', () => {
    const auth = system({
      body: 'The MCP server "github" needs a token, and none is saved. …',
      notice: { code: 'mcp_auth', server: 'github' },
    });
    expect(html('ja', <ChatMessage comment={auth} />)).toContain(
      'MCP サーバー「github」にはサインインまたはトークンが必要です',
    );
    const trouble = system({
      body: 'MCP server "files" exited at start: ENOENT',
      notice: { code: 'mcp_warning', server: 'files' },
    });
    const ja = html('ja', <ChatMessage comment={trouble} />);
    expect(ja).toContain('MCP サーバー「files」で問題が起きました');
    expect(ja).toContain('data-testid="notice-detail">MCP server &quot;files&quot; exited at start: ENOENT</pre>');
  });

  it('a comment without a notice shows its body as Markdown, as before', () => {
    const plain = system({ body: 'A **plain** note.' });
    expect(html('ja', <ChatMessage comment={plain} />)).toContain('<strong>plain</strong>');
  });

  it("a started subtask: its title in the person's words and a link to it, not the model's English line", () => {
    const call: StepToolCall = {
      id: 'call_1',
      name: 'create_subtask',
      arguments: '{"instruction":"count the files","title":"Count files"}',
      result: {
        ok: true,
        content: 'Subtask "Count files" started (task tsk_42, job job_7, piece default).',
        chars: 70,
      },
    };
    const ja = html('ja', <StepTools jobId="j1" calls={[call]} />);
    expect(ja).toContain('サブタスク「Count files」を開始しました。');
    expect(ja).toContain('data-testid="step-subtask"');
    expect(ja).not.toContain('started (task');
  });
});
