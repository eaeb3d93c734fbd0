// The Japanese text of task grants (merged into ja.ts), key for key as en-grants.ts.
import type { enGrants } from './en-grants';

export const jaGrants: Record<keyof typeof enGrants, string> = {
  'grant.choiceLabel': '「このタスクで承認」の範囲',
  'grant.exact.command': 'このコマンドだけ: {value}',
  'grant.exact.path': '{value} への {tool} だけ',
  'grant.exact.agent': 'エージェント {value} への {tool} だけ',
  'grant.exact.call': 'この {tool} の呼び出し（同じ引数）だけ',
  'grant.exact.callValue': '引数が {value} の {tool} だけ',
  'grant.prefix': '{rule} に一致するコマンド（後ろに ; && | > $( ) を含まないもの）',
  'grant.tool.command': 'このタスクのすべてのコマンド（サンドボックス内で何でも）',
  'grant.tool.other': 'このタスクでの {tool} のすべての呼び出し',
  'grant.list.title': 'このタスクで承認済み',
  'grant.list.revoke': '取り消す',
  'grant.list.revokeLabel': '取り消す: {what}',
  'grant.list.revokeFailed': '取り消せませんでした: {message}',
};
