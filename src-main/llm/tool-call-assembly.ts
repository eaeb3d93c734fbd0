// Tool calls put together from stream deltas as servers send them: by index (OpenAI), by id when the index is
// missing or repeated (Gemini, older Ollama), whole in one delta, opaque per-call fields kept as sent.
import { ReplyLimitError } from './reply-limits';
import type { LlmDelta, LlmToolCall } from './types';

export interface LooseToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
  extra_content?: unknown;
}

interface Call {
  id: string;
  name: string;
  arguments: string;
  /** UTF-8 bytes of `arguments`. */
  bytes: number;
  extra?: unknown;
}

/**
 * Which call a delta belongs to: a known id → its call; a new id → a new call (even at an index already used: older
 * Ollama numbers every call 0); no id → the call at its index, or without an index the last call. Each call's
 * position is the `index` of its live deltas, so they stay valid whatever the server numbered.
 */
export class ToolCallAssembly {
  readonly calls: Call[] = [];
  private readonly byIndex = new Map<number, number>();
  private readonly byId = new Map<string, number>();

  /** `maxArgumentBytes`: the most one call's arguments may hold (the profile's maxToolArgumentBytes). */
  constructor(private readonly maxArgumentBytes = Number.POSITIVE_INFINITY) {}

  /**
   * Adds one delta; returns the live delta to report, or null when it carried nothing to show. Throws
   * ReplyLimitError when the call's arguments pass their limit, before the delta is kept or shown.
   */
  add(tc: LooseToolCallDelta): Extract<LlmDelta, { type: 'tool_call' }> | null {
    const position = this.target(tc);
    const call = this.calls[position] as Call;
    const id = tc.id || undefined;
    const name = tc.function?.name || undefined;
    const argumentsDelta = tc.function?.arguments ?? '';
    if (id && !call.id) {
      call.id = id;
      this.byId.set(id, position);
    }
    if (name) call.name = name;
    if (argumentsDelta) {
      const bytes = call.bytes + Buffer.byteLength(argumentsDelta);
      if (bytes > this.maxArgumentBytes) {
        throw new ReplyLimitError({ limit: 'maxToolArgumentBytes', value: this.maxArgumentBytes });
      }
      call.bytes = bytes;
      call.arguments += argumentsDelta;
    }
    if (tc.extra_content !== undefined && tc.extra_content !== null) call.extra = tc.extra_content;
    if (!id && !name && !argumentsDelta) return null;
    return {
      type: 'tool_call',
      index: position,
      ...(id ? { id } : {}),
      ...(name ? { name } : {}),
      argumentsDelta,
    };
  }

  private target(tc: LooseToolCallDelta): number {
    const index = typeof tc.index === 'number' ? tc.index : undefined;
    const id = tc.id || undefined;
    if (id) {
      const known = this.byId.get(id);
      if (known !== undefined) return known;
      const atIndex = index === undefined ? undefined : this.byIndex.get(index);
      // The id arrived after the call's first delta.
      if (atIndex !== undefined && !this.calls[atIndex]?.id) return atIndex;
      return this.open(index);
    }
    if (index !== undefined) return this.byIndex.get(index) ?? this.open(index);
    return this.calls.length > 0 ? this.calls.length - 1 : this.open(undefined);
  }

  private open(index: number | undefined): number {
    const last = this.calls.at(-1);
    // A delta that only carried metadata opened a call that the next delta turns out to start.
    const position = last && !last.id && !last.name && !last.arguments ? this.calls.length - 1 : this.calls.length;
    if (position === this.calls.length) this.calls.push({ id: '', name: '', arguments: '', bytes: 0 });
    if (index !== undefined) this.byIndex.set(index, position);
    return position;
  }
}

/** The calls of a finished stream, each with an id (made up when the server sent none); empty placeholders dropped. */
export function assembleToolCalls(assembly: ToolCallAssembly, callNumber: number): LlmToolCall[] {
  return assembly.calls
    .map((c, position) => ({ call: c, position }))
    .filter(({ call }) => call.name || call.arguments)
    .map(({ call, position }) => ({
      id: call.id || `call_${callNumber}_${position}`,
      name: call.name,
      arguments: call.arguments,
      ...(call.extra !== undefined ? { extra: call.extra } : {}),
    }));
}
