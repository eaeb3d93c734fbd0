// The English text of the notice shown while the desktop's core process is started again (merged into en.ts).
export const enCore = {
  'core.restarting.title': 'MAESTRO’s core stopped unexpectedly and is starting again.',
  'core.restarting.body':
    'Nothing you sent before is lost: running tasks resume once it is back (in about {seconds} s, try {attempt}). Actions wait until then.',
} as const;
