// The Japanese text of stopping a job from where one types (merged into ja.ts).
import type { enFeed } from './en-feed';

export const jaFeed: Record<keyof typeof enFeed, string> = {
  'feed.stopped': '停止しました',
  'feed.stoppedLabel': 'ここで停止: 書いている途中で実行を停止しました',
  'composer.stop': '停止',
  'composer.stopTitle': '実行を停止 (Esc)。ここまでに書かれた内容は残ります',
  'composer.stopFailed': '実行を停止できませんでした: {error}',
  'shortcuts.stop': '実行中のエージェントを停止',
  'shortcuts.scope.stop': 'ダイアログ、メニュー、ほかの入力欄以外の場所で',
};
