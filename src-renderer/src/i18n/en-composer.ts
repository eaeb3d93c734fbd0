// The English text of the composer's profile picker, the quick replies under a question and the attachments on an
// instruction (merged into en.ts).
export const enComposer = {
  'composer.profile.label': 'Runs on',
  'composer.profile.title': 'The LLM profile of the run this message starts; the task keeps its own',
  'composer.profile.option': '{name} · {model}',
  'composer.profile.default': '{name} · {model} (default)',
  'composer.profile.missing': '{name} (no longer exists)',
  'composer.profile.joins': 'Goes to the current run, on {profile}; a new run can use another profile.',
  'composer.profile.joinsDefault': 'Goes to the current run, on its profile; a new run can use another profile.',
  'chat.quickReplies': 'Quick replies',
  'chat.quickReply.title': 'Answer “{choice}”',
  'chat.quickReply.failed': 'The answer was not sent: {error}',
  'chat.attachments': 'Attached files',
  'chat.attachment.unreadable': '{name}: the preview could not be loaded ({error})',
} as const;
