// The Japanese text of the person's words for what was written for the model (merged into ja.ts), key for key as
// en-words.ts.
import type { enWords } from './en-words';

export const jaWords: Record<keyof typeof enWords, string> = {
  'step.decision.deniedByRule': 'Auto Prompter がルール {rule} で拒否しました — 理由: {reason}',
  'notice.continued': '止まったところから続けてください。',
  'usage.calls': 'モデル呼び出し',
};
