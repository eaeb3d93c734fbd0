// 日本語: カードが現れたときにスクリーンリーダーへ伝える文 (DecisionAnnouncer)、そこへ移るショートカット、
// コンパクトなタスクヘッダーの使用量チップ (ja.ts に統合)。
import type { enA11y } from './en-a11y';

export const jaA11y: Record<keyof typeof enA11y, string> = {
  'shortcuts.focusDecision': 'あなたを待っている承認や質問へ移動',
  'shortcuts.scope.window': 'どこでも (入力欄でも)',
  'shortcuts.noDecision': 'このタスクにはあなたを待っているものはありません。',
  'announce.tool': '承認が必要です: {tool}。{keys} で移動します。',
  'announce.package': '承認が必要です: パッケージ {name} のインストール。{keys} で移動します。',
  'announce.more': 'ほかに {count} 件の依頼が待っています。',
  'announce.question': 'エージェントからの質問: {question} {keys} で回答へ移動します。',
  'taskView.usageChip': '使用量',
  'taskView.usageChipTitle': 'このタスクが使ったトークン数 (詳細を開く)',
  'taskView.usageTokens': '{tokens} トークン',
};
