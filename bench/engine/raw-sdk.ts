// The baseline: the raw `openai` SDK sending the very request bodies the engine sent, streamed and consumed, back to
// back, after one untimed request on the same client. The SDK serializes each body whole, as its callers' are.
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatRequestBody, ScriptedStep } from '../../test-support/scripted-llm-server';
import { clock, cpuNow, since, type Timing } from './figures';
import { WARM_UP_STEP } from './script';
import { type Served, serve } from './server';

export interface RawRun extends Timing {
  /** When each replayed request reached the server (the untimed first one left out). */
  arrivals: Served['arrivals'];
  /** When each replayed request's reply had been sent whole. */
  replies: Served['replies'];
  /** This process's CPU ms as each replayed request is sent. */
  cpuMarks: number[];
}

export async function runRaw(bodies: readonly ChatRequestBody[], script: ScriptedStep[], ttftMs = 0): Promise<RawRun> {
  const server = await serve([WARM_UP_STEP, ...script], ttftMs);
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-bench', maxRetries: 0 });
  const send = async (body: ChatRequestBody) => {
    const stream = await client.chat.completions.create({
      ...(body as unknown as ChatCompletionCreateParamsStreaming),
      stream: true,
    });
    let args = '';
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) args += call.function?.arguments ?? '';
    }
    return args.length;
  };
  try {
    await send(bodies[0] as ChatRequestBody);
    const started = clock();
    let received = 0;
    const cpuMarks: number[] = [];
    for (const body of bodies) {
      cpuMarks.push(cpuNow());
      received += await send(body);
    }
    const timing = since(started);
    const served = await server.close();
    if (received === 0) throw new Error('the raw SDK received no tool calls');
    return { ...timing, arrivals: served.arrivals.slice(1), replies: served.replies.slice(1), cpuMarks };
  } finally {
    await server.close().catch(() => {});
  }
}
