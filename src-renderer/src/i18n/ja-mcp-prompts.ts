// The Japanese text of the cards of what an MCP server asks the person while its tool call waits (merged into ja.ts).
import type { enMcpPrompts } from './en-mcp-prompts';

export const jaMcpPrompts: Record<keyof typeof enMcpPrompts, string> = {
  'mcpPrompt.cards': 'MCP サーバーからの質問 {count} 件',
  'mcpPrompt.kind': '回答が必要です',
  'mcpPrompt.elicitWants': 'MCP サーバー {server} からの質問:',
  'mcpPrompt.sampleWants': 'MCP サーバー {server} がプロファイル {profile} のモデルを使う許可を求めています:',
  'mcpPrompt.waiting':
    'エージェントはあなたの回答を待っています(ツール呼び出しは実行中のままです)。{time} までに回答がなければ、サーバーには回答がなかったと伝えます。',
  'mcpPrompt.required': '必須',
  'mcpPrompt.choose': '選択してください…',
  'mcpPrompt.yes': 'はい',
  'mcpPrompt.maxTokens': '回答は最大 {count} トークン',
  'mcpPrompt.messages': 'サーバーがモデルに送る内容',
  'mcpPrompt.submit': '回答を送る',
  'mcpPrompt.decline': '断る',
  'mcpPrompt.cancel': '今は答えない',
  'mcpPrompt.allow': '今回だけ許可',
  'mcpPrompt.deny': '拒否',
  'mcpPrompt.notNumber': '{field}: 数値を入力してください',
};
