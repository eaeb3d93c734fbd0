// The Japanese text of the first-run setup and of a job's profile notices (merged into ja.ts), key for key as
// en-setup.ts.
import type { enSetup } from './en-setup';

export const jaSetup: Record<keyof typeof enSetup, string> = {
  'setup.title': 'モデルを接続',
  'setup.intro':
    'タスクを実行するには OpenAI 互換のモデルサーバーが必要です。モデルの場所を選び、接続をテストしてから保存してください。',
  'setup.presets': 'モデルはどこで動いていますか？',
  'setup.preset.openai': 'OpenAI',
  'setup.preset.openrouter': 'OpenRouter',
  'setup.preset.ollama': 'Ollama（ローカル）',
  'setup.preset.lmstudio': 'LM Studio（ローカル）',
  'setup.preset.generic': 'その他の OpenAI 互換サーバー',
  'setup.back': '戻る',
  'setup.close': '閉じる',
  'profile.test': '接続をテスト',
  'profile.testing': 'テスト中…',
  'profile.testOk': '接続しました。サーバーには {count} 個のモデルがあります。',
  'profile.testOkNone': '接続しましたが、サーバーはモデルを一覧にしていません。モデル名を入力してください。',
  'profile.testModelMissing': 'サーバーの一覧にモデル「{model}」がありません。',
  'profile.testFailed': '接続できません: {error}',
  'profile.refused': 'サーバーが API キーを拒否しました（401/403）。キーを確認してください。',
  'profile.unreachable':
    'このベース URL で応答するサーバーがありません。起動しているか、URL が正しいか確認してください。',
  'profile.modelPick': 'サーバーのモデル',
  'profile.modelPickNone': 'モデルを選択…',
  'job.noProfile': 'このタスクは LLM プロファイルを待っています。モデルサーバーがまだ設定されていません。',
  'job.noProfileNamed': 'このタスクは存在しない LLM プロファイル「{name}」を待っています。',
  'job.setUpProfile': 'プロファイルを設定',
  'job.openProfile': 'プロファイル {name} を開く',
  'job.error.profile_key_refused': 'モデルサーバーがプロファイル {name} の API キーを拒否しました。',
  'job.error.profile_unreachable': 'プロファイル {name} のモデルサーバーに接続できませんでした。',
  'job.error.profile_model_unknown': 'モデルサーバーはプロファイル {name} のモデルを知りません。',
  'job.error.profile_missing': 'LLM プロファイル {name} は存在しません。',
  'job.retryAt': '次の試行は{when}です。',
  'job.retryDue': '次の試行はまもなくです。',
  'job.retryNow': '今すぐ再試行',
  'job.retrying': '再試行中…',
};
