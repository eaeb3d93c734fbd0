// Test support: a stdio "MCP server" that misbehaves on purpose, speaking raw JSON-RPC lines (no SDK, so it can
// break the protocol). `node mcp-faulty-server.mjs <mode>`:
//   garbage   prints a line that is not JSON-RPC and never answers
//   banner    prints a banner line first, then serves like a good server
//   hang      reads its input and never answers
//   exit      says why on stderr and exits 3 at once
//   malformed answers initialize and tools/list, then a tools/call with a result that is not a CallToolResult
//   bad-list  answers initialize, then tools/list with a malformed result
import readline from 'node:readline';

const mode = process.argv[2] ?? 'hang';
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const TOOL = { name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object', properties: {} } };

if (mode === 'exit') {
  process.stderr.write('fatal: no config found\n');
  process.exit(3);
}
if (mode === 'garbage') process.stdout.write('Hello! This is not MCP.\n');
if (mode === 'banner') process.stdout.write('server v1 starting…\n');

const lines = readline.createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
lines.on('line', (line) => {
  if (mode === 'hang' || mode === 'garbage') return;
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case 'initialize':
      return send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: `faulty-${mode}`, version: '1.0.0' },
        },
      });
    case 'tools/list':
      return send({ id: message.id, result: mode === 'bad-list' ? { tools: 'none' } : { tools: [TOOL] } });
    case 'tools/call':
      return send({
        id: message.id,
        result: mode === 'malformed' ? { content: [{ type: 'text' }] } : { content: [{ type: 'text', text: 'pong' }] },
      });
    default:
      return send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  }
});
