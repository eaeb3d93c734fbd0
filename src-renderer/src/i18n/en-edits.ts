// The English text of reviewing changes: a job's "Files changed" block, the edit request card, and the Tool Policy's
// "Ask before editing files" switch (merged into en.ts).
export const enEdits = {
  'files.title': 'Files changed ({count})',
  'files.label': 'Files this run changed',
  'files.partial': 'Counted from the steps loaded; earlier steps of this run are not loaded.',
  'files.show': 'Show diff',
  'files.hide': 'Hide diff',
  'files.changes': '{count} change|{count} changes',
  'edit.request.edit': 'Edit {path}',
  'edit.request.write': 'Write {path}',
  'settings.toolPolicy.askEdits': 'Ask before editing files',
  'settings.toolPolicy.askEditsHint':
    'Every edit_file and write_file call waits for your approval, showing the diff it would apply (tools.ask).',
  'edit.protected.title': '{path} runs code outside the sandbox',
  'edit.protected.what':
    'Your own tools read this file and run what it says, with your full access, without asking you: {reason}.',
  'edit.protected.approve':
    'Approving lets this one change through. Each later change to such a file asks again, even after "Approve for this task".',
} as const;
