// Test support: a real stdio MCP server process (`node --import tsx test-support/mcp-stdio-server.ts`). It writes
// its pid to $MCP_TEST_PID_FILE, so tests can see it start and end, and `whoami` reports $MCP_TEST_TOKEN.
import fs from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from './mcp-test-tools';

const pidFile = process.env.MCP_TEST_PID_FILE;
if (pidFile) fs.appendFileSync(pidFile, `${process.pid}\n`);

const server = testMcpServer(() => process.env.MCP_TEST_TOKEN);
const transport = new StdioServerTransport();
// The client closing stdin ends the server, as a well-behaved MCP server does.
process.stdin.on('end', () => process.exit(0));
void server.connect(transport);
