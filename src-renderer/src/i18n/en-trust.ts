// The English text of what shows untrusted text honestly: the flags of hidden characters and long cards, and the
// confirmation before a link the model wrote opens (merged into en.ts).
export const enTrust = {
  'untrusted.hidden':
    'This text holds {count} hidden or look-alike character, shown as ⟨U+…⟩.|This text holds {count} hidden or look-alike characters, shown as ⟨U+…⟩.',
  'untrusted.gap': '⟨{count} blank line⟩|⟨{count} blank lines⟩',
  'untrusted.escapeTitle': 'Hidden character {code}: {name}',
  'untrusted.escapeTitleUnnamed': 'Hidden character {code}',
  'approval.cmd.lines': 'A command of {count} line — all of it runs.|A command of {count} lines — all of them run.',
  'approval.longer': 'This card is longer than the space shown: scroll it to read everything before you decide.',
  'link.title': 'Open this link?',
  'link.written': 'The agent wrote this link. Check where it goes before you open it.',
  'link.host': 'Site',
  'link.recipient': 'Recipient',
  'link.address': 'Whole address',
  'link.query': 'Data sent with it',
  'link.punycode':
    'The site’s name uses international letters. Its real name is {host}: letters from other alphabets can imitate a familiar name.',
  'link.open': 'Open',
  'link.cancel': 'Cancel',
};
