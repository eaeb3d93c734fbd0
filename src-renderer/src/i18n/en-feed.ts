// The English text of stopping a job from where one types: the composer's Stop, its Esc shortcut, and the mark on
// what was streamed before the stop (merged into en.ts).
export const enFeed = {
  'feed.stopped': 'Stopped',
  'feed.stoppedLabel': 'Stopped here: the run was stopped while this was being written',
  'composer.stop': 'Stop',
  'composer.stopTitle': 'Stop the run (Esc); what was written so far stays',
  'composer.stopFailed': 'Could not stop the run: {error}',
  'shortcuts.stop': 'Stop the running agent',
  'shortcuts.scope.stop': 'anywhere but a dialog, a menu or another text field',
};
