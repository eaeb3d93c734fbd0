// The Japanese text of reviewing changes (merged into ja.ts).
import type { enEdits } from './en-edits';

export const jaEdits: Record<keyof typeof enEdits, string> = {
  'files.title': '変更されたファイル ({count})',
  'files.label': 'この実行が変更したファイル',
  'files.partial': '読み込まれたステップだけを数えています。この実行のそれ以前のステップは読み込まれていません。',
  'files.show': '差分を表示',
  'files.hide': '差分を隠す',
  'files.changes': '{count} 件の変更',
  'edit.request.edit': '{path} を編集',
  'edit.request.write': '{path} に書き込み',
  'settings.toolPolicy.askEdits': 'ファイルを編集する前に確認する',
  'settings.toolPolicy.askEditsHint':
    'edit_file と write_file の呼び出しはすべて、適用する差分を表示してあなたの承認を待ちます (tools.ask)。',
  'edit.protected.title': '{path} はサンドボックスの外でコードを実行させるファイルです',
  'edit.protected.what':
    'あなたのツールがこのファイルを読み、書かれた内容をあなたの全権限で、確認なしに実行します: {reason}。',
  'edit.protected.approve':
    '承認するとこの 1 回の変更だけが書き込まれます。「このタスク中は承認」を選んでも、このようなファイルへの以降の変更は毎回確認されます。',
};
