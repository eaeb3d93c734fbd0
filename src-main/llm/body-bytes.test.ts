// The request bytes built from messages encoded once are JSON.stringify's, byte for byte: for seeded random bodies
// that grow as a conversation does (the same message objects in request after request), and on the wire to a real
// server through the openai SDK.
import { describe, expect, it } from 'vitest';
import { kit, USER } from '../../test-support/llm-kit';
import { mulberry32 } from '../../test-support/prng';
import { bodyBytes } from './body-bytes';
import type { ChatMessage } from './types';

const same = (body: object) => expect(bodyBytes(body).toString('utf8')).toBe(JSON.stringify(body));

/** Text with what JSON escapes or encodes in more than one byte: quotes, controls, U+2028, emoji, a lone surrogate. */
const PIECES = [
  'plain',
  '"quoted"',
  'back\\slash',
  'tab\tnew\nline',
  '\u0001\u001f',
  '\u2028',
  'é—…',
  '🎼',
  '\ud800',
  '',
];

function text(random: () => number): string {
  let s = '';
  for (let n = Math.floor(random() * 4); n > 0; n--) s += PIECES[Math.floor(random() * PIECES.length)];
  return s;
}

function message(random: () => number, i: number): ChatMessage {
  switch (Math.floor(random() * 4)) {
    case 0:
      return { role: 'user', content: random() < 0.5 ? text(random) : [{ type: 'text', text: text(random) }] };
    case 1:
      return {
        role: 'assistant',
        content: random() < 0.5 ? null : text(random),
        tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"p":"${i}"}` } }],
        ...(random() < 0.3 ? { reasoning_content: text(random) } : {}),
      };
    case 2:
      return { role: 'tool', tool_call_id: `c${i}`, content: text(random) };
    default:
      // An optional field left undefined is left out, as JSON.stringify leaves it.
      return { role: 'assistant', content: text(random), tool_calls: undefined } as ChatMessage;
  }
}

describe('the request body encoded once per message', () => {
  it('is JSON.stringify(body) byte for byte for 200 seeded conversations, request after request', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = mulberry32(seed);
      const tools = [{ type: 'function', function: { name: 'read', description: text(random), parameters: {} } }];
      const messages: ChatMessage[] = [{ role: 'system', content: text(random) }];
      for (let turn = 0; turn < 12; turn++) {
        messages.push(message(random, turn));
        // Now and then an earlier message is replaced (a prompt guard's rewrite): encoded again from there.
        if (random() < 0.15) messages[1 + Math.floor(random() * (messages.length - 1))] = message(random, turn);
        same({
          model: `m-${text(random)}`,
          messages: [...messages],
          ...(random() < 0.5 ? { tools } : {}),
          temperature: random() < 0.5 ? undefined : 0.2,
          stream: true,
          ...(random() < 0.5 ? { stream_options: { include_usage: true } } : {}),
        });
      }
    }
  });

  it('keeps odd bodies JSON.stringify writes: empty, non-object elements, a message in two places', () => {
    const shared: ChatMessage = { role: 'user', content: 'twice' };
    same({});
    same({ messages: [] });
    same({ messages: [shared, { role: 'assistant', content: 'between' }, shared] });
    same({ messages: [null, 'text', 3, undefined], tools: 'not an array', f: () => 1, n: null });
    // The cache is per object: another object with the same key order but other values gets its own bytes.
    same({ messages: [{ role: 'user', content: 'twice!' }] });
  });

  it('P4.20 reaches the server as those bytes, through the openai SDK, turn after turn', async () => {
    const k = await kit({ script: [{ text: 'one' }, { text: 'two — 🎼' }] });
    const first = await k.client.generate({ messages: USER }, k.hooks);
    const grown: ChatMessage[] = [...USER, { role: 'assistant', content: first.text }, { role: 'user', content: 'é' }];
    await k.client.generate({ messages: grown }, k.hooks);
    const [a, b] = k.server.requests;
    expect(a?.body?.messages).toEqual(USER);
    expect(b?.body?.messages).toEqual(grown);
    // What JSON.stringify writes: no whitespace, its escapes, UTF-8.
    expect(b?.rawBody).toBe(JSON.stringify(JSON.parse(b?.rawBody ?? '')));
    expect(b?.headers?.['content-type']).toBe('application/json');
    k.server.expectEmpty();
  });
});
