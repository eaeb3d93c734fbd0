// The Japanese text of the new-task composer and of renaming a task in the list (merged into ja.ts).
import type { enNewTask } from './en-newtask';

export const jaNewTask: Record<keyof typeof enNewTask, string> = {
  'newTask.heading': '何に取り組みますか?',
  'newTask.label': 'メッセージ',
  'newTask.placeholder': 'タスクの内容を書いてください（{keys} で送信）',
  'newTask.send': '送信',
  'newTask.sending': '開始中…',
  'newTask.sendTitle': 'タスクを開始（{keys}）',
  'newTask.chips': 'タスクを実行する場所と進め方',
  'newTask.folder.label': 'フォルダー',
  'newTask.folder.default': '{name}（既定）',
  'newTask.folder.scratch': '新しい作業用フォルダー',
  'newTask.folder.other': '別のフォルダー…',
  'newTask.folder.path': 'フォルダーのパス',
  'newTask.folder.pathPlaceholder': 'フォルダーのフルパス（例: /home/me/project）',
  'newTask.piece.label': '進め方',
  'newTask.piece.builtin.default': 'そのまま進める',
  'newTask.piece.builtin.ask-first': '先に確認する',
  'newTask.piece.builtin.plan-implement-review': '計画・実装・レビュー',
  'newTask.piece.workspace': '{name}（このフォルダー用）',
  'newTask.model.label': 'モデル',
  'newTask.model.none': 'モデルがまだありません。設定で追加しないと、タスクは待ち続けます。',
  'newTask.attach': 'ファイルを添付',
  'tasks.renameHint': 'ダブルクリックで名前を変更',
};
