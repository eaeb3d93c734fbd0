// The card of an MCP server's question while its call waits: a form with the server's fields (English and Japanese),
// the server's text through the untrusted-text renderer; sampling shows what would go to the model with Allow / Deny;
// the live event opens the card in the open task and closes it.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { McpPrompt } from '../../../src-shared/contract';
import type { MaestroEvent } from '../../../src-shared/events';
import type { MaestroApi, MaestroClient } from '../api/client';
import type { Locale } from '../i18n/translate';
import { NO_ENTITIES } from '../store/entities';
import { reduceEntities } from '../store/entity-reducer';
import { createAppStore, StoreContext } from '../store/store';
import { McpPromptCard } from './McpPromptCard';

const client: MaestroClient = { transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} };

function html(locale: Locale, prompt: McpPrompt): string {
  vi.stubGlobal('localStorage', { getItem: () => locale, setItem: () => {} });
  try {
    return renderToStaticMarkup(
      <StoreContext.Provider value={createAppStore(client)}>
        <McpPromptCard prompt={prompt} />
      </StoreContext.Provider>,
    );
  } finally {
    vi.unstubAllGlobals();
  }
}

const base = { taskId: 't1', jobId: 'j1', server: 'booking', createdAt: '2026-12-03T09:00:00Z' };
const field = {
  description: null,
  required: false,
  format: null,
  options: [],
  default: null,
  min: null,
  max: null,
};
const elicit: McpPrompt = {
  ...base,
  id: 'p1',
  expiresAt: '2026-12-03T09:10:00Z',
  kind: 'elicit',
  message: 'Book for how many?\u202E',
  fields: [
    { ...field, name: 'name', title: 'Name', kind: 'string', required: true },
    { ...field, name: 'guests', title: 'Guests', kind: 'integer', min: 1, max: 12 },
    {
      ...field,
      name: 'seating',
      title: 'Seating',
      kind: 'choice',
      options: [
        { value: 'in', title: 'Indoor' },
        { value: 'out', title: 'Outdoor' },
      ],
    },
    { ...field, name: 'confirm', title: 'Confirm', kind: 'boolean', default: true },
  ],
};
const sample: McpPrompt = {
  ...base,
  id: 'p2',
  expiresAt: '2026-12-03T09:10:00Z',
  kind: 'sample',
  summary: 'system: Be brief.\n\nuser: Summarize this.',
  profile: 'work',
  maxTokens: 60,
};

describe('McpPromptCard', () => {
  it('a form: the server’s message and fields, required marked, with Send, Decline and Not now (English)', () => {
    const out = html('en', elicit);
    expect(out).toContain('The MCP server booking asks you:');
    expect(out).toContain('Your answer is needed');
    expect(out).toContain('data-testid="mcp-field-name"');
    expect(out).toContain('(required)');
    expect(out).toMatch(/<input[^>]*type="number"[^>]*min="1"[^>]*max="12"|<input[^>]*min="1"[^>]*max="12"/);
    expect(out).toContain('<option value="out">Outdoor</option>');
    expect(out).toMatch(/type="checkbox"[^>]*checked=""/);
    expect(out).toContain('Send answer');
    expect(out).toContain('Decline');
    expect(out).toContain('Not now');
    expect(out).toContain('The agent waits for your answer');
    // The server wrote the message: its hidden character shows as such, never acts.
    expect(out).toContain('U+202E');
  });

  it('the same form in Japanese', () => {
    const out = html('ja', elicit);
    expect(out).toContain('MCP サーバー booking からの質問:');
    expect(out).toContain('回答を送る');
    expect(out).toContain('断る');
    expect(out).toContain('(必須)');
  });

  it('sampling: what would go to the model, the profile, the token bound, Allow once and Deny (both languages)', () => {
    const en = html('en', sample);
    expect(en).toContain('The MCP server booking asks to use the model of profile work:');
    expect(en).toContain('user: Summarize this.');
    expect(en).toContain('At most 60 tokens in the answer');
    expect(en).toContain('data-card-action="approve"');
    expect(en).toContain('Allow once');
    const ja = html('ja', sample);
    expect(ja).toContain('プロファイル work のモデル');
    expect(ja).toContain('今回だけ許可');
  });

  it('the live event opens the card in the open task only, and closes it', () => {
    const opened = reduceEntities(NO_ENTITIES, { kind: 'chat.open', taskId: 't1' });
    const event = (prompt: McpPrompt, open: boolean): MaestroEvent => ({
      type: 'mcp_prompt.changed',
      seq: 0,
      ts: '2026-12-03T09:00:00Z',
      taskId: prompt.taskId,
      jobId: prompt.jobId,
      prompt,
      open,
    });
    const shown = reduceEntities(opened, { kind: 'event', event: event(elicit, true) });
    expect(shown.requests?.mcp.map((p) => p.id)).toEqual(['p1']);
    const elsewhere = reduceEntities(shown, { kind: 'event', event: event({ ...sample, taskId: 't2' }, true) });
    expect(elsewhere.requests?.mcp.map((p) => p.id)).toEqual(['p1']);
    // Every task's open questions are known, for the notification center.
    expect(elsewhere.asking).toEqual({ t1: ['p1'], t2: ['p2'] });
    const closed = reduceEntities(elsewhere, { kind: 'event', event: event(elicit, false) });
    expect(closed.requests?.mcp).toEqual([]);
    expect(closed.asking).toEqual({ t2: ['p2'] });
    // A reload lists the open task's questions: they count too.
    const listed = reduceEntities(closed, {
      kind: 'requests.page',
      taskId: 't1',
      tool: [],
      package: [],
      mcp: [elicit],
    });
    expect(listed.asking).toEqual({ t2: ['p2'], t1: ['p1'] });
    const answered = reduceEntities(listed, { kind: 'mcp_prompt', prompt: elicit, open: false });
    expect(answered.asking).toEqual({ t2: ['p2'] });
  });
});
