// The English text of a failed model call's row (its words per case, Retry, Edit profile) and of Settings' side list
// (merged into en.ts).
export const enErrors = {
  'modelError.auth': 'The model server refused the key of profile {name}{status}.',
  'modelError.model_not_found': 'The model server does not know the model of profile {name}{status}.',
  'modelError.rate_limit': 'The model server is limiting how often it answers{status}. Wait a moment, then retry.',
  'modelError.server_error': 'The model server had a failure of its own{status}. Retry in a moment.',
  'modelError.unreachable': 'The model server of profile {name} could not be reached.',
  'modelError.timeout': 'The model server of profile {name} took too long to answer{status}.',
  'modelError.context_too_long': 'The conversation is longer than the model of profile {name} can read at once.',
  'modelError.profile_missing': 'The LLM profile {name} does not exist.',
  'modelError.unknown': 'Something went wrong, so the work stopped{status}.',
  'modelError.status': ' ({status})',
  'modelError.serverSaid': 'What the server said',
  'modelError.retry': 'Retry',
  'modelError.retrying': 'Retrying…',
  'modelError.retryFailed': 'Could not retry: {error}',
  'modelError.editProfile': 'Edit profile {name}',
  'modelError.saved': 'Profile {name} is saved. Retry the stopped task with it?',
  'modelError.savedRetry': 'Retry now',
  'settings.sections': 'Settings sections',
};
