// The English text of what is said to a screen reader when a card appears (DecisionAnnouncer), the shortcut that
// goes to it, and the compact task header's usage chip (merged into en.ts).
export const enA11y = {
  'shortcuts.focusDecision': 'Go to the request or question that waits for you',
  'shortcuts.scope.window': 'anywhere, even in a text field',
  'shortcuts.noDecision': 'Nothing in this task waits for you.',
  'announce.tool': 'Approval needed: {tool}. {keys} goes to it.',
  'announce.package': 'Approval needed: install the package {name}. {keys} goes to it.',
  'announce.more': '{count} more request waits.|{count} more requests wait.',
  'announce.question': 'The agent asks: {question} {keys} goes to the answer.',
  'taskView.usageChip': 'Usage',
  'taskView.usageChipTitle': 'Tokens used by this task; opens the details',
  'taskView.usageTokens': '{tokens} tokens',
} as const;
