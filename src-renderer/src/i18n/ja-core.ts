// The Japanese text of the notice shown while the desktop's core process is started again (merged into ja.ts).
import type { enCore } from './en-core';

export const jaCore: Record<keyof typeof enCore, string> = {
  'core.restarting.title': 'MAESTRO のコアが予期せず停止したため、再起動しています。',
  'core.restarting.body':
    'これまでに送信した内容は失われていません。再開後 (約 {seconds} 秒後、{attempt} 回目) に実行中のタスクは続きから進みます。それまで操作はお待ちください。',
};
