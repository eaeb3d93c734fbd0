// The English text of the cards of what an MCP server asks the person while its tool call waits: a form to fill in
// (elicitation) or leave to ask the task's model (sampling) (merged into en.ts).
export const enMcpPrompts = {
  'mcpPrompt.cards': '{count} question from an MCP server|{count} questions from MCP servers',
  'mcpPrompt.kind': 'Your answer is needed',
  'mcpPrompt.elicitWants': 'The MCP server {server} asks you:',
  'mcpPrompt.sampleWants': 'The MCP server {server} asks to use the model of profile {profile}:',
  'mcpPrompt.waiting':
    'The agent waits for your answer (its tool call is still running). Without an answer by {time}, the server is told you did not answer.',
  'mcpPrompt.required': 'required',
  'mcpPrompt.choose': 'Choose…',
  'mcpPrompt.yes': 'Yes',
  'mcpPrompt.maxTokens': 'At most {count} token in the answer|At most {count} tokens in the answer',
  'mcpPrompt.messages': 'What the server would send to the model',
  'mcpPrompt.submit': 'Send answer',
  'mcpPrompt.decline': 'Decline',
  'mcpPrompt.cancel': 'Not now',
  'mcpPrompt.allow': 'Allow once',
  'mcpPrompt.deny': 'Deny',
  'mcpPrompt.notNumber': '{field}: enter a number',
};
