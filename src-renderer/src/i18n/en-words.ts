// The English text that says in the person's words what was written for the model or named in the spec's terms: an
// Auto Prompter denial, the Continue that started a run, the usage panel's model calls (merged into en.ts).
export const enWords = {
  'step.decision.deniedByRule': 'The Auto Prompter denied this (rule {rule}) — reason: {reason}',
  'notice.continued': 'Go on from where it stopped.',
  'usage.calls': 'Model calls',
} as const satisfies Record<string, string>;
