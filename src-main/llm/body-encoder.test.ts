import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { BodyEncoder } from './body-encoder';

type Body = ChatCompletionCreateParamsStreaming;
type Message = Body['messages'][number];

const tools: Body['tools'] = [
  { type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: {} } } },
];
const body = (messages: Message[], extra: Partial<Body> = {}): Body => ({
  model: 'm',
  messages: [...messages],
  tools,
  ...extra,
  stream: true,
  stream_options: { include_usage: true },
});

describe('BodyEncoder', () => {
  it('encodes exactly what JSON.stringify does, as the conversation grows, is rewritten and shrinks', () => {
    const encoder = new BodyEncoder();
    const messages: Message[] = [
      { role: 'system', content: 'Static preamble — “quoted”, 日本語, \u2028 and a "quote".' },
      { role: 'user', content: 'Do it.' },
    ];
    const check = (b: Body) => expect(encoder.encode(b)).toBe(JSON.stringify(b));
    check(body(messages));
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'α\nβ' },
    );
    check(body(messages, { temperature: 0.2, parallel_tool_calls: false }));
    // A rewrite (the prompt guard) gives new message objects; an earlier, shorter list comes back.
    const rewritten: Message[] = [messages[0] as Message, { role: 'user', content: 'Summary of earlier turns.' }];
    check(body(rewritten));
    check(body(messages.slice(0, 2)));
    check({ model: 'm', messages: [], stream: true });
  });

  it('keeps the conversations of jobs running at once apart', () => {
    const encoder = new BodyEncoder();
    const a: Message[] = [
      { role: 'system', content: 'A' },
      { role: 'user', content: 'task A' },
    ];
    const b: Message[] = [
      { role: 'system', content: 'B' },
      { role: 'user', content: 'task B' },
    ];
    for (let turn = 0; turn < 3; turn++) {
      for (const [name, messages] of [
        ['a', a],
        ['b', b],
      ] as const) {
        messages.push({ role: 'assistant', content: `${name} ${turn}` });
        const sent = body(messages);
        expect(encoder.encode(sent)).toBe(JSON.stringify(sent));
      }
    }
  });
});
