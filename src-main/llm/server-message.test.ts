// The server's words from every error-body shape real servers send (each shape with the source it was taken from).
import { describe, expect, it } from 'vitest';
import { MISTRAL_422_STREAM_OPTIONS } from '../../test-support/provider-shapes/mistral';
import { MAX_MESSAGE_CHARS, messageOfBody, serverMessage } from './server-message';

describe('serverMessage', () => {
  it('reads {error:{message}} (OpenAI; llama.cpp format_error_response in tools/server/utils.hpp)', () => {
    const body = {
      error: {
        code: 400,
        message: 'request (4476 tokens) exceeds the available context size (4096 tokens)',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 4476,
        n_ctx: 4096,
      },
    };
    expect(serverMessage(400, body)).toBe('request (4476 tokens) exceeds the available context size (4096 tokens)');
  });

  it('reads {error:"text"} (Ollama native API; ollama/ollama#14795)', () => {
    expect(serverMessage(400, { error: 'registry.ollama.ai/library/Qwen3.5:0.8b does not support tools' })).toBe(
      'registry.ollama.ai/library/Qwen3.5:0.8b does not support tools',
    );
  });

  it("reads the flat {message} of vLLM's ErrorResponse (vllm/entrypoints/openai/protocol.py)", () => {
    const body = { object: 'error', message: 'The model `gpt-4` does not exist.', type: 'NotFoundError', code: 404 };
    expect(serverMessage(404, body)).toBe('The model `gpt-4` does not exist.');
  });

  it("reads Mistral's 422 message:{detail:[…]} as loc: msg (avante-corp/avante.nvim#2347)", () => {
    const body = MISTRAL_422_STREAM_OPTIONS;
    expect(serverMessage(422, body)).toBe('body.stream_options.include_usage: Extra inputs are not permitted');
  });

  it('reads a message that is itself JSON text (Mistral, mistralai/platform-docs-public#7)', () => {
    const body = {
      object: 'error',
      message:
        '{"detail":[{"type":"extra_forbidden","loc":["body","frequency_penalty"],"msg":"Extra inputs are not permitted"}]}',
      type: 'internal_error_proxy',
      code: '1000',
    };
    expect(serverMessage(422, body)).toBe('body.frequency_penalty: Extra inputs are not permitted');
  });

  it('reads FastAPI {detail:"text"} and {detail:[…]}', () => {
    expect(serverMessage(404, { detail: 'Not Found' })).toBe('Not Found');
    expect(
      serverMessage(422, { detail: [{ loc: ['body', 'messages'], msg: 'Field required', type: 'missing' }] }),
    ).toBe('body.messages: Field required');
  });

  it("reads Gemini's error array (SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter#3)", () => {
    const body = [
      {
        error: {
          code: 400,
          message: 'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ];
    expect(serverMessage(400, body)).toBe(
      'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
    );
  });

  it('reads text, and an HTML page without its markup (nginx 502 page)', () => {
    expect(serverMessage(500, 'tools param requires --jinja flag\n')).toBe('tools param requires --jinja flag');
    const nginx =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';
    expect(serverMessage(502, nginx)).toBe('502 Bad Gateway nginx/1.25.3');
    expect(serverMessage(500, '<p>a &amp; b &lt;c&gt;</p><script>var x = 1;</script>')).toBe('a & b <c>');
  });

  it('bounds a long body', () => {
    const message = serverMessage(500, `Traceback ${'x'.repeat(5_000)}`);
    expect(message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(message.endsWith('…')).toBe(true);
  });

  it('says the status in words when the body has no message', () => {
    expect(serverMessage(502, '')).toBe('HTTP 502 Bad Gateway (the response had no message)');
    expect(serverMessage(500, { error: {} })).toBe('HTTP 500 Internal Server Error (the response had no message)');
    expect(serverMessage(599, undefined)).toBe('HTTP 599 (the response had no message)');
    expect(messageOfBody({ ok: false })).toBeUndefined();
  });
});
