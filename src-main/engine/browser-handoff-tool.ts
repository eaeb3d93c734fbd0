// browser_handoff { url, instruction }: a step only the person can do in their browser (sign in, solve a CAPTCHA,
// grant an OAuth consent). The job parks `waiting_human` / `browser` (P4.41); the person's reply — a comment — wakes
// it (P1.12), the call is answered on resume and their words arrive as the next user message.
import { z } from 'zod';
import type { ToolDef } from '../tools/types';

export const BROWSER_HANDOFF = 'browser_handoff';

const isWebUrl = (value: string) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

const Args = z.strictObject({
  url: z
    .string()
    .max(4096)
    .refine(isWebUrl, { message: 'must be an http:// or https:// URL' })
    .describe('The page to open in the user’s browser.'),
  instruction: z.string().trim().min(1).max(2000).describe('What the user should do there, in one or two sentences.'),
});

/** Answers the call when the woken job resumes: the reply itself follows as the next user message. */
export const BROWSER_HANDOFF_RESUMED =
  'The user was asked to do this in their browser and has replied; their reply is the next message.';

export const browserHandoffTool: ToolDef<z.infer<typeof Args>> = {
  name: BROWSER_HANDOFF,
  description:
    'Ask the user to do a step in their own browser that only a person can do (sign in, solve a CAPTCHA, grant access). The task waits until they reply.',
  parameters: Args,
  readOnly: false,
  async execute({ url, instruction }) {
    return { kind: 'wait', browser: { url, instruction } };
  },
};
