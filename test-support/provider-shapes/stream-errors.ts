// Errors a server reports inside a 200 stream: an `{"error":…}` frame, vLLM's `{"object":"error"}` frame, OpenRouter's
// mid-stream error with finish_reason "error", Mistral's bare finish_reason "error".
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-err', 'some-model');

export const errorFrame: ProviderShape = {
  name: 'An {"error":…} frame inside a 200 stream (refused for good)',
  origin: 'documented',
  source:
    'github.com/block/goose/pull/8031 (vLLM, SGLang, Exo and OpenAI send {"error":{"message":…}} mid-stream); ' +
    'openai/openai-node src/core/streaming.ts (a data frame with an error field is thrown as an APIError)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: 'Par' }),
          {
            error: {
              message: "'tools' is not supported by this model",
              type: 'BadRequestError',
              param: null,
              code: 400,
            },
          },
        ],
      },
    },
  ],
  expect: { ok: false, kind: 'terminal', message: /'tools' is not supported by this model/ },
};

export const vllmErrorObject: ProviderShape = {
  name: 'vLLM\'s {"object":"error"} frame',
  origin: 'documented',
  source: 'github.com/block/goose/pull/8031 (vLLM error shape {"object":"error","message":…} in the stream)',
  replies: [
    {
      raw: {
        sse: [
          {
            object: 'error',
            message: 'The decoder prompt is invalid for this request.',
            type: 'BadRequestError',
            param: null,
            code: 400,
          },
          DONE,
        ],
      },
    },
  ],
  expect: { ok: false, kind: 'terminal', message: /decoder prompt is invalid/ },
};

export const openrouterMidStreamError: ProviderShape = {
  name: 'OpenRouter mid-stream error (error + finish_reason "error")',
  origin: 'documented',
  source:
    'openrouter.ai/docs/api-reference/streaming, "Handling Errors During Streaming": a data event with a top-level ' +
    'error {code, message} and choices [{finish_reason: "error"}], then the stream ends',
  replies: [
    {
      raw: {
        sse: [
          ': OPENROUTER PROCESSING',
          f({ role: 'assistant', content: 'Let me' }),
          {
            ...f({ content: '' }, 'error'),
            provider: 'openai',
            error: { code: 'server_error', message: 'Provider disconnected unexpectedly' },
          },
        ],
      },
    },
  ],
  repeat: true,
  expect: { ok: false, kind: 'retries_exhausted', message: /Provider disconnected unexpectedly/ },
};

export const finishReasonError: ProviderShape = {
  name: 'finish_reason "error" without an error field (Mistral)',
  origin: 'documented',
  source: 'github.com/mistralai/client-python/issues/74 (the API streams finish_reason "error")',
  replies: [{ raw: { sse: [f({ role: 'assistant', content: 'Part' }), f({ content: '' }, 'error'), DONE] } }],
  repeat: true,
  expect: { ok: false, kind: 'retries_exhausted', message: /finish_reason "error"/ },
};
