// The English text of task grants: the card's choice of what "Approve for this task" covers, and the task's list of
// grants with Revoke (merged into en.ts).
export const enGrants = {
  'grant.choiceLabel': 'What “Approve for this task” covers',
  'grant.exact.command': 'This command only: {value}',
  'grant.exact.path': '{tool} on {value} only',
  'grant.exact.agent': '{tool} to the agent {value} only',
  'grant.exact.call': 'This exact call of {tool} only',
  'grant.exact.callValue': '{tool} with exactly {value}',
  'grant.prefix': 'Commands matching {rule} (no ; && | > $( ) after it)',
  'grant.tool.command': 'ANY command in this task (everything, in the sandbox)',
  'grant.tool.other': 'ANY call of {tool} in this task',
  'grant.list.title': 'Approved for this task',
  'grant.list.revoke': 'Revoke',
  'grant.list.revokeLabel': 'Revoke: {what}',
  'grant.list.revokeFailed': 'Could not revoke: {message}',
} as const;
