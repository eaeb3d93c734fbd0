// The permission table for MCP tools (issue 21, point 4): every combination of readOnlyHint / openWorldHint /
// destructiveHint (true, false, absent) under no rule / allow / ask / deny, in a movement that may edit and in one that
// may not, with the machine's OS sandbox and with none. The decision is pure: the sandbox changes nothing. A server's
// hints only ever add asking: a call runs without a card only when read-only AND closed-world, or the policy allows it.
import { describe, expect, it } from 'vitest';
import { DECLARED_SANDBOX, tempWorkspace } from '../../test-support/tools';
import type { SandboxChoice } from '../tools/os-sandbox';
import { decideCall, type ToolRule } from '../tools/permission';
import { MCP_NETWORK_NOTE, mcpToolDef } from './mcp-tools';

type Hint = 'true' | 'false' | 'absent';
type Kind = 'runs' | 'network' | 'edits';

/** [readOnlyHint, openWorldHint, destructiveHint, what the tool is]: written out, not derived. */
const COMBINATIONS: [Hint, Hint, Hint, Kind][] = [
  ['true', 'true', 'true', 'edits'],
  ['true', 'true', 'false', 'network'],
  ['true', 'true', 'absent', 'network'],
  ['true', 'false', 'true', 'edits'],
  ['true', 'false', 'false', 'runs'],
  ['true', 'false', 'absent', 'runs'],
  ['true', 'absent', 'true', 'edits'],
  ['true', 'absent', 'false', 'network'],
  ['true', 'absent', 'absent', 'network'],
  ['false', 'true', 'true', 'edits'],
  ['false', 'true', 'false', 'edits'],
  ['false', 'true', 'absent', 'edits'],
  ['false', 'false', 'true', 'edits'],
  ['false', 'false', 'false', 'edits'],
  ['false', 'false', 'absent', 'edits'],
  ['false', 'absent', 'true', 'edits'],
  ['false', 'absent', 'false', 'edits'],
  ['false', 'absent', 'absent', 'edits'],
  ['absent', 'true', 'true', 'edits'],
  ['absent', 'true', 'false', 'edits'],
  ['absent', 'true', 'absent', 'edits'],
  ['absent', 'false', 'true', 'edits'],
  ['absent', 'false', 'false', 'edits'],
  ['absent', 'false', 'absent', 'edits'],
  ['absent', 'absent', 'true', 'edits'],
  ['absent', 'absent', 'false', 'edits'],
  ['absent', 'absent', 'absent', 'edits'],
];

type Row = [none: string, allow: string, ask: string, deny: string];
/** What a call gets under no rule / allow / ask / deny, in a movement that may edit and in one that may not. */
const EXPECTED: Record<Kind, { edit: Row; noEdit: Row }> = {
  runs: { edit: ['run', 'run', 'ask', 'refuse'], noEdit: ['run', 'run', 'ask', 'refuse'] },
  // Reading, but maybe from the network: asks unless the policy allows the tool by name.
  network: { edit: ['ask', 'run', 'ask', 'refuse'], noEdit: ['ask', 'run', 'ask', 'refuse'] },
  edits: { edit: ['ask', 'run', 'ask', 'refuse'], noEdit: ['refuse', 'refuse', 'refuse', 'refuse'] },
};

const RULES: ToolRule[] = [undefined, 'allow', 'ask', 'deny'];
const NO_SANDBOX: SandboxChoice = { ok: false, reason: 'bubblewrap is not installed' };

function annotations(readOnly: Hint, openWorld: Hint, destructive: Hint) {
  const a: Record<string, boolean> = {};
  const set = (key: string, h: Hint) => {
    if (h !== 'absent') a[key] = h === 'true';
  };
  set('readOnlyHint', readOnly);
  set('openWorldHint', openWorld);
  set('destructiveHint', destructive);
  return a;
}

const toolOf = (a: Record<string, boolean>) =>
  mcpToolDef('mcp__web__fetch', { name: 'fetch', inputSchema: { type: 'object' }, annotations: a }, () =>
    Promise.resolve({ kind: 'result', ok: true, content: '' }),
  );

describe('P4.34 MCP tools: what a call does decides, not what a server claims', () => {
  for (const [label, sandbox] of [
    ['with the OS sandbox', DECLARED_SANDBOX],
    ['without an OS sandbox', NO_SANDBOX],
  ] as const) {
    it(`the table: 27 annotation combinations × no rule / allow / ask / deny × edit or not, ${label}`, () => {
      const t = tempWorkspace();
      const seen: Record<string, { edit: string[]; noEdit: string[] }> = {};
      const wanted: Record<string, { edit: Row; noEdit: Row }> = {};
      for (const [r, o, d, kind] of COMBINATIONS) {
        const tool = toolOf(annotations(r, o, d));
        const row = (canEdit: boolean) =>
          RULES.map((rule) => decideCall(tool, { url: 'https://x' }, t.ctx({ canEdit, sandbox }), rule, false).kind);
        const key = `readOnly=${r} openWorld=${o} destructive=${d}`;
        seen[key] = { edit: row(true), noEdit: row(false) };
        wanted[key] = EXPECTED[kind];
      }
      expect(seen).toEqual(wanted);
    });
  }

  it('the card says when the call may reach the network; a closed-world call that asks does not', () => {
    const t = tempWorkspace();
    for (const [r, o, d, kind] of COMBINATIONS) {
      const decided = decideCall(toolOf(annotations(r, o, d)), { url: 'https://x' }, t.ctx(), 'ask', false);
      expect(decided.kind).toBe('ask');
      const summary = decided.kind === 'ask' ? decided.summary : '';
      expect(summary.startsWith('mcp__web__fetch\n{\n  "url": "https://x"\n}')).toBe(true);
      expect(summary.includes(MCP_NETWORK_NOTE), `${r} ${o} ${d} ${kind}`).toBe(o !== 'false');
    }
  });

  it('what a tool needs and whether it runs concurrently follow the same reading of its hints', () => {
    for (const [r, o, d, kind] of COMBINATIONS) {
      const tool = toolOf(annotations(r, o, d));
      const needs = [...(kind === 'edits' ? ['edit'] : []), ...(o === 'false' ? [] : ['network', 'external'])];
      expect(tool.needs, `${r} ${o} ${d}`).toEqual(needs);
      expect(tool.readOnly, `${r} ${o} ${d}`).toBe(kind !== 'edits');
    }
  });
});
