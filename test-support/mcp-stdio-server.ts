// Test support: a real stdio MCP server process (`node --import tsx test-support/mcp-stdio-server.ts`). It writes
// its pid to $MCP_TEST_PID_FILE, so tests can see it start and end, each cancellation that reached a call's handler
// to $MCP_TEST_EVENTS_FILE, and `whoami` reports $MCP_TEST_TOKEN; `crash` exits it with code 7.
import fs from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from './mcp-test-tools';

const pidFile = process.env.MCP_TEST_PID_FILE;
if (pidFile) fs.appendFileSync(pidFile, `${process.pid}\n`);

const eventsFile = process.env.MCP_TEST_EVENTS_FILE;
const server = testMcpServer(() => process.env.MCP_TEST_TOKEN, {
  onCancelled: (tool, reason) => {
    if (eventsFile) fs.appendFileSync(eventsFile, `${JSON.stringify({ cancelled: tool, reason: String(reason) })}\n`);
  },
  crash: () => {
    process.stderr.write('about to crash\n');
    process.exit(7);
  },
});
const transport = new StdioServerTransport();
// The client closing stdin ends the server, as a well-behaved MCP server does.
process.stdin.on('end', () => process.exit(0));
void server.connect(transport);
