// MAESTRO's Agent Card: its pieces as skills, one JSON-RPC endpoint spoken in A2A 1.0 and 0.3, streaming, and the
// bridge's bearer token as the one security scheme. Made fresh for every request, so a piece added shows at once.
import { AgentCard } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { PieceSummary } from '../../src-shared/entities';
import { RESULT_MEDIA_TYPE } from './task-view';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/** Under the bridge's /api/local, so it takes the bearer token like every other route. */
export const A2A_RPC_PATH = '/a2a';
export const BEARER_SCHEME = 'bridgeToken';

export function agentCard(options: { rpcUrl: string; version: string; pieces: readonly PieceSummary[] }): AgentCard {
  return AgentCard.fromJSON({
    name: 'MAESTRO',
    description:
      'Runs durable LLM agents on this machine: a message becomes a MAESTRO task run by a piece (a workflow of ' +
      'movements) in its workspace folder. A context id names the task; a question or an approval a person must give ' +
      'is input-required, a missing MCP token auth-required. Give a piece with message.metadata.pieceId.',
    version: options.version,
    supportedInterfaces: duplicateInterfacesForLegacy(
      [{ url: options.rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      ['JSONRPC'],
    ),
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: {
      [BEARER_SCHEME]: {
        httpAuthSecurityScheme: {
          scheme: 'Bearer',
          description: 'The token of the MAESTRO bridge (bridge.json in its data dir).',
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: [RESULT_MEDIA_TYPE, 'text/plain'],
    skills: options.pieces.map((piece) => ({
      id: piece.id,
      name: piece.name,
      description: piece.description || `The MAESTRO piece ${piece.id}`,
      tags: ['maestro-piece', piece.source],
      examples: [],
    })),
  });
}
