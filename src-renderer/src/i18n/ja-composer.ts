// The Japanese text of the composer's profile picker, the quick replies and an instruction's attachments (merged into
// ja.ts).
import type { enComposer } from './en-composer';

export const jaComposer: Record<keyof typeof enComposer, string> = {
  'composer.profile.label': '実行プロファイル',
  'composer.profile.title': 'このメッセージで始まる実行の LLM プロファイル（タスク自体のプロファイルは変わりません）',
  'composer.profile.option': '{name} · {model}',
  'composer.profile.default': '{name} · {model}（既定）',
  'composer.profile.missing': '{name}（削除済み）',
  'composer.profile.joins': '{profile} で進行中の実行に届きます。別のプロファイルは新しい実行で選べます。',
  'composer.profile.joinsDefault':
    '進行中の実行にそのプロファイルのまま届きます。別のプロファイルは新しい実行で選べます。',
  'chat.quickReplies': 'クイック返信',
  'chat.quickReply.title': '「{choice}」と回答する',
  'chat.quickReply.failed': '回答を送れませんでした: {error}',
  'chat.attachments': '添付ファイル',
  'chat.attachment.unreadable': '{name}: プレビューを読み込めませんでした（{error}）',
} as const;
