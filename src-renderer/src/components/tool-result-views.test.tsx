// Issue 27 point 7: a call's last progress note before its result stays in the live stream once the result came; the
// images a tool returned are shown in its step, from their stored bytes (data: URLs, which the CSP's img-src allows).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { MaestroApi, MaestroClient } from '../api/client';
import { foldStreamEvent, type JobStream, type StreamEvent } from '../store/job-stream';
import { createAppStore, StoreContext } from '../store/store';
import { StreamTools } from './JobStreamMessage';
import { StepTools } from './StepMessage';

const client: MaestroClient = { transport: 'http', api: {} as MaestroApi, subscribe: () => () => {} };
type Without<T> = T extends unknown ? Omit<T, 'seq' | 'ts' | 'taskId' | 'jobId'> : never;
const ev = (e: Without<StreamEvent>) => ({ seq: 1, ts: '', taskId: 't', jobId: 'j1', ...e }) as StreamEvent;

function render(node: React.ReactNode): string {
  vi.stubGlobal('localStorage', { getItem: () => 'en', setItem: () => {} });
  try {
    const store = createAppStore(client);
    const rendered = { ...store, getInitialState: store.getState };
    return renderToStaticMarkup(<StoreContext.Provider value={rendered}>{node}</StoreContext.Provider>);
  } finally {
    vi.unstubAllGlobals();
  }
}

function html(stream: JobStream): string {
  vi.stubGlobal('localStorage', { getItem: () => 'en', setItem: () => {} });
  try {
    const store = createAppStore(client);
    const rendered = { ...store, getInitialState: store.getState };
    return renderToStaticMarkup(
      <StoreContext.Provider value={rendered}>
        <StreamTools calls={stream.turns[0]?.toolCalls ?? []} />
      </StoreContext.Provider>,
    );
  } finally {
    vi.unstubAllGlobals();
  }
}

describe('a tool call’s progress in the live stream', () => {
  it('the last note before the result is still shown with the result', () => {
    const events: StreamEvent[] = [
      ev({ type: 'TurnStart', turnCount: 1 }),
      ev({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 }),
      ev({
        type: 'stream.delta',
        text: '',
        reasoning: '',
        toolCalls: [{ index: 0, name: 'mcp__every__long', arguments: '{}' }],
      }),
      ev({
        type: 'LlmCallEnd',
        llmCallCount: 1,
        attempt: 1,
        outcome: 'ok',
        latencyMs: 5,
        ttftMs: 1,
        usage: { llmCalls: 1, promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
        cachedPromptTokens: 0,
      }),
      ev({
        type: 'tool.progress',
        callId: 'c1',
        name: 'mcp__every__long',
        progress: 3,
        total: 3,
        message: 'indexed 412 files',
      }),
    ];
    const running = events.reduce<JobStream | undefined>((s, e) => foldStreamEvent(s, e), undefined) as JobStream;
    expect(html(running)).toContain('indexed 412 files');
    const done = foldStreamEvent(
      running,
      ev({ type: 'tool.finished', callId: 'c1', name: 'mcp__every__long', ok: true, preview: 'done' }),
    ) as JobStream;
    expect(done.turns[0]?.toolCalls[0]?.status).toBe('ok');
    const shown = html(done);
    expect(shown).toContain('indexed 412 files');
    expect(shown).toContain('data-testid="stream-tool-progress"');
  });
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('an image a tool returned', () => {
  it('is shown in its step as an image, beside the text that names it; none without images', () => {
    const content = '[image image/png, 70 B]';
    const call = (images?: { mimeType: 'image/png'; data: string }[]) => ({
      id: 'c1',
      name: 'mcp__shots__take',
      arguments: '{}',
      result: { ok: true, content, chars: content.length, ...(images ? { images } : {}) },
    });
    const shown = render(<StepTools jobId="j1" calls={[call([{ mimeType: 'image/png', data: PNG }])]} />);
    expect(shown).toContain(`<img class="step-image" src="data:image/png;base64,${PNG}"`);
    expect(shown).toContain('alt="An image the tool returned (image/png)"');
    expect(shown).toContain(content);
    expect(render(<StepTools jobId="j1" calls={[call()]} />)).not.toContain('<img');
  });
});
