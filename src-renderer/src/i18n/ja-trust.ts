// The Japanese text of what shows untrusted text honestly (merged into ja.ts).
import type { enTrust } from './en-trust';

export const jaTrust: Record<keyof typeof enTrust, string> = {
  'untrusted.hidden': 'このテキストには見えない文字・紛らわしい文字が {count} 個あり、⟨U+…⟩ として表示しています。',
  'untrusted.gap': '⟨空行 {count} 行⟩',
  'untrusted.escapeTitle': '見えない文字 {code}: {name}',
  'untrusted.escapeTitleUnnamed': '見えない文字 {code}',
  'approval.cmd.lines': '{count} 行のコマンドです。すべての行が実行されます。',
  'approval.longer': 'このカードは表示領域より長いです。判断する前にスクロールしてすべて読んでください。',
  'link.title': 'このリンクを開きますか?',
  'link.written': 'このリンクはエージェントが書いたものです。開く前に行き先を確認してください。',
  'link.host': 'サイト',
  'link.recipient': '宛先',
  'link.address': 'アドレス全体',
  'link.query': '一緒に送られるデータ',
  'link.punycode':
    'サイト名に国際文字が使われています。実際の名前は {host} です。他の文字体系の文字はよく知られた名前を装えます。',
  'link.open': '開く',
  'link.cancel': 'キャンセル',
};
