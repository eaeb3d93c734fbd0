// The Japanese text of a failed model call's row and of Settings' side list (merged into ja.ts), key for key as
// en-errors.ts.
import type { enErrors } from './en-errors';

export const jaErrors: Record<keyof typeof enErrors, string> = {
  'modelError.auth': 'モデルサーバーがプロファイル {name} のキーを拒否しました{status}。',
  'modelError.model_not_found': 'モデルサーバーはプロファイル {name} のモデルを知りません{status}。',
  'modelError.rate_limit': 'モデルサーバーが応答の頻度を制限しています{status}。少し待ってから再試行してください。',
  'modelError.server_error': 'モデルサーバー側で障害が起きました{status}。少し待ってから再試行してください。',
  'modelError.unreachable': 'プロファイル {name} のモデルサーバーに接続できませんでした。',
  'modelError.timeout': 'プロファイル {name} のモデルサーバーの応答が遅すぎました{status}。',
  'modelError.context_too_long': '会話がプロファイル {name} のモデルが一度に読める長さを超えました。',
  'modelError.profile_missing': 'LLM プロファイル {name} は存在しません。',
  'modelError.unknown': '問題が起きたため、作業を止めました{status}。',
  'modelError.status': '（{status}）',
  'modelError.serverSaid': 'サーバーの応答',
  'modelError.retry': '再試行',
  'modelError.retrying': '再試行中…',
  'modelError.retryFailed': '再試行できませんでした: {error}',
  'modelError.editProfile': 'プロファイル {name} を編集',
  'modelError.saved': 'プロファイル {name} を保存しました。止まったタスクをこのプロファイルで再試行しますか?',
  'modelError.savedRetry': '今すぐ再試行',
  'settings.sections': '設定の項目',
};
