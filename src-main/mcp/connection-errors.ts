// Why a connection to an MCP server failed: its credentials refused (the job parks), or the server unreachable.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { CodedError } from '../../src-shared/errors';
import { SignInNeeded } from './oauth-provider';

/** The server refused the job's credentials (HTTP 401, or 403 for a scope they lack), or needs a sign-in again. */
export class McpAuthError extends CodedError {
  readonly code = 'mcp_credentials_refused';
  constructor(
    readonly server: string,
    readonly status: 401 | 403 = 401,
    /** A sign-in's tokens could not be renewed (the authorization server did not answer); they are kept. */
    readonly renewFailed = false,
  ) {
    super(
      renewFailed
        ? `MCP server "${server}": the sign-in could not be renewed`
        : `MCP server "${server}" refused the credentials (HTTP ${status})`,
    );
  }
}

/** The server could not be started or reached; `retryable` when another attempt may work (not a missing program). */
export class McpConnectError extends CodedError {
  readonly code = 'mcp_unreachable';
  constructor(
    readonly server: string,
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(`MCP server "${server}" could not be connected: ${reason}`);
  }
}

/**
 * 401 or 403 when the error is the server refusing the credentials: its HTTP answer, the SDK's UnauthorizedError (a
 * sign-in's refresh did not help), or a sign-in needed again; null for anything else.
 */
export function authRefusal(server: string, error: unknown): McpAuthError | null {
  if (error instanceof SignInNeeded) return new McpAuthError(server, 401, error.renewFailed);
  if (error instanceof UnauthorizedError) return new McpAuthError(server, 401);
  // The authorization server's own refusal (a refresh refused twice, a client it no longer knows) or failure.
  if (error instanceof OAuthError) return new McpAuthError(server, 401, error instanceof ServerError);
  if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return null;
  return error.code === 401 || error.code === 403 ? new McpAuthError(server, error.code) : null;
}
