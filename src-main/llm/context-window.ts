// A model's context window as a server's model list states it, where it does: OpenRouter and Moonshot say
// `context_length`, Groq `context_window`, vLLM `max_model_len`. A list that says none of these gives none: the
// window is never guessed from a model's name.
const WINDOW_FIELDS = ['context_length', 'context_window', 'max_model_len'] as const;

/** The window an entry of GET /models states, when it states a positive whole number of tokens. */
export function contextWindowOf(entry: unknown): number | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  for (const field of WINDOW_FIELDS) {
    const value = (entry as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  }
  return undefined;
}
