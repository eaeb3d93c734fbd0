import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from './text-tool-calls';

const TOOLS = new Set(['read_file', 'complete']);
const parse = (text: string) => parseTextToolCalls(text, TOOLS);

describe('tool calls a model wrote as text', () => {
  // Hermes / Qwen (vllm-project/vllm vllm/entrypoints/openai/tool_parsers/hermes_tool_parser.py): JSON between tags.
  it('Hermes/Qwen <tool_call>: one or several, text around them kept as the content', () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.md"}}\n</tool_call>\n' +
      '<tool_call>{"arguments": {"path": "b.md"}, "name": "read_file"}</tool_call>\nThen I decide.';
    expect(parse(text)).toEqual({
      calls: [
        { name: 'read_file', arguments: '{"path":"a.md"}' },
        { name: 'read_file', arguments: '{"path":"b.md"}' },
      ],
      content: 'Let me look.\nThen I decide.',
    });
  });

  it('Hermes/Qwen: the last call left unclosed at the end of the reply, arguments given as a JSON string', () => {
    expect(parse('<tool_call>{"name": "complete", "arguments": "{\\"status\\":\\"success\\"}"}')).toEqual({
      calls: [{ name: 'complete', arguments: '{"status":"success"}' }],
      content: '',
    });
  });

  it('Hermes/Qwen: markup whose JSON does not parse stays text', () => {
    expect(parse('<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>')).toBeNull();
    expect(parse('<tool_call>{"arguments": {}}</tool_call>')).toBeNull();
  });

  // Mistral before tokenizer v11 (vllm-project/vllm vllm/entrypoints/openai/tool_parsers/mistral_tool_parser.py).
  it('Mistral [TOOL_CALLS][…]: a JSON list of calls after the marker', () => {
    expect(
      parse(
        'Sure.[TOOL_CALLS] [{"name": "read_file", "arguments": {"path": "a"}}, {"name": "complete", "arguments": {}}]',
      ),
    ).toEqual({
      calls: [
        { name: 'read_file', arguments: '{"path":"a"}' },
        { name: 'complete', arguments: '{}' },
      ],
      content: 'Sure.',
    });
  });

  // Mistral v11 (same vLLM parser) and v13 (ollama/ollama model/parsers/ministral.go): name, then the arguments.
  it('Mistral [TOOL_CALLS]name{…} and [TOOL_CALLS]name[ARGS]{…}, one marker per call', () => {
    expect(parse('[TOOL_CALLS]read_file{"path": "a"}[TOOL_CALLS]read_file[ARGS]{"path": "b"}')).toEqual({
      calls: [
        { name: 'read_file', arguments: '{"path": "a"}' },
        { name: 'read_file', arguments: '{"path": "b"}' },
      ],
      content: '',
    });
    expect(parse('[TOOL_CALLS]read_file[ARGS]{"path": ')).toBeNull();
  });

  // Llama 3.x (vllm-project/vllm vllm/entrypoints/openai/tool_parsers/llama_tool_parser.py).
  it('Llama <|python_tag|>: calls with "parameters", several separated by ";"', () => {
    expect(
      parse(
        '<|python_tag|>{"name": "read_file", "parameters": {"path": "x;y"}}; {"name": "complete", "parameters": {}}',
      ),
    ).toEqual({
      calls: [
        { name: 'read_file', arguments: '{"path":"x;y"}' },
        { name: 'complete', arguments: '{}' },
      ],
      content: '',
    });
  });

  it('a bare JSON call as the whole reply counts only when it names a tool of the request', () => {
    expect(parse(' {"name": "read_file", "parameters": {"path": "a"}}\n')).toEqual({
      calls: [{ name: 'read_file', arguments: '{"path":"a"}' }],
      content: '',
    });
    expect(parse('{"name": "Ada", "arguments": {"age": 36}}')).toBeNull();
    expect(parse('Here is the record: {"name": "read_file", "arguments": {}}')).toBeNull();
  });

  it('plain text holds no calls', () => {
    expect(parse('The answer is 42.')).toBeNull();
    expect(parse('')).toBeNull();
  });
});
