// The Japanese text of cost and context (merged into ja.ts), key for key as en-cost.ts.
import type { enCost } from './en-cost';

export const jaCost: Record<keyof typeof enCost, string> = {
  'cost.title': '{model} の定価から見積もった額',
  'cost.titleMixed': '各モデルの定価から見積もった額',
  'cost.job': '実行 {usd}',
  'cost.jobTitle': 'このやり取りで始まった実行全体（そのやり取りすべての合計）',
  'cost.turn': 'ターン {turn}',
  'cost.perTurn': 'ターンごとのモデル呼び出し',

  'gauge.label': 'コンテキスト: {model} への最後の呼び出しで {window} トークン中 {prompt}（{percent}%）',
  'gauge.sourceServer': 'サーバーのモデル一覧にある長さ',
  'gauge.sourceProfile': 'プロファイルに設定した長さ',

  'price.legend': '価格（100 万トークンあたりの米ドル）',
  'price.input': '入力',
  'price.cachedInput': 'キャッシュ入力',
  'price.output': '出力',
  'price.preset': '空欄: {model} の定価 {input} / {cached} / {output}（{checked} 確認、{source}）。',
  'price.none': '空欄: {model} の価格は不明なので、使用量はトークン数だけを表示します。',
  'price.invalid': '0 以上のドルの金額を入力してください。',
  'price.needBoth': '価格には入力と出力の両方が必要です。',
};
