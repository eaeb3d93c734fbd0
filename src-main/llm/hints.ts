// What to do about a failed request where the fix is known: one table of hints, matched on the server's words.

export interface FailureFacts {
  status?: number;
  /** The server's message (or ours, for a stream that broke). */
  message: string;
}

export interface HintProfile {
  name: string;
  model: string;
}

interface HintRule {
  matches: (facts: FailureFacts) => boolean;
  /** The request can never work as sent: even a 5xx saying so fails at once instead of being retried. */
  permanent: boolean;
  text: (profile: HintProfile) => string;
}

/** Words servers use when the prompt does not fit the model's context window. */
export const CONTEXT_OVERFLOW =
  /exceeds? the (available )?context size|context[ _-]?(length|window|size)|maximum context|n_ctx|prompt is too long|too many tokens|reduce the length of the messages/i;

const says = (pattern: RegExp) => (facts: FailureFacts) => pattern.test(facts.message);

const HINTS: readonly HintRule[] = [
  {
    matches: says(/--jinja/),
    permanent: true,
    text: () => 'llama.cpp takes tools only with its --jinja flag: start llama-server again with --jinja.',
  },
  {
    matches: says(/--enable-auto-tool-choice/),
    permanent: true,
    text: () =>
      'vLLM calls tools only when started with --enable-auto-tool-choice and a --tool-call-parser for the model.',
  },
  {
    matches: says(/does not support tools|no endpoints found that support tool use/i),
    permanent: true,
    text: (p) => `the model "${p.model}" cannot call tools: choose a model that can in profile ${p.name}.`,
  },
  {
    matches: says(CONTEXT_OVERFLOW),
    permanent: true,
    text: (p) =>
      `the conversation does not fit the model's context window: give the server a larger context (llama.cpp -c, Ollama num_ctx) or a larger model, and set the context window of profile ${p.name} to match.`,
  },
  {
    matches: says(/without a finish_reason/),
    permanent: false,
    text: (p) =>
      `the server keeps ending its answer before it is finished, which usually means its context window is too small: give it a larger context and set the context window of profile ${p.name} to match.`,
  },
  {
    // Reached only when adding them did not help (client.ts adds what the conversation holds and sends again once).
    matches: says(/\breasoning_content\b|\bthought_?signature/i),
    permanent: true,
    text: (p) =>
      `the server wants back the reasoning or thought signatures its model streamed with earlier tool calls, and this conversation does not hold them for every call (made by another model or profile?): start a new task on profile ${p.name}.`,
  },
  {
    matches: (f) => f.status === 401 || f.status === 403,
    permanent: true,
    text: (p) => `the server refused the key: check the API key of profile ${p.name}.`,
  },
  {
    matches: (f) => f.status === 404 && /model/i.test(f.message),
    permanent: true,
    text: (p) => `the server does not know the model "${p.model}": check the model name of profile ${p.name}.`,
  },
];

/** The hint for a failure, undefined when no fix is known. */
export function hintFor(facts: FailureFacts, profile: HintProfile): string | undefined {
  return HINTS.find((h) => h.matches(facts))?.text(profile);
}

/** True when the server's words say the request can never work as sent, whatever the status. */
export function isPermanent(facts: FailureFacts): boolean {
  return HINTS.some((h) => h.permanent && h.matches(facts));
}
