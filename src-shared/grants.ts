// Task grants: what a person approved "for this task" on a card, as narrow as what the card showed — that command, a
// prefix rule the person chose (`npm test *`), that tool on that target (a file, an agent, a call's arguments), or,
// only when chosen in those words, any call of the tool. The engine lets a later call run without a card only when a
// grant that was not revoked covers it.
import { z } from 'zod';

/** What a grant of a tool names of a call: the command line, a workspace-relative path, an agent, or the arguments. */
export const GRANT_TARGET_KINDS = ['command', 'path', 'agent', 'call'] as const;
export const GrantTargetKind = z.enum(GRANT_TARGET_KINDS);
export type GrantTargetKind = z.infer<typeof GrantTargetKind>;

export const GrantTarget = z.object({ kind: GrantTargetKind, value: z.string() });
export type GrantTarget = z.infer<typeof GrantTarget>;

/**
 * What "for this task" grants, chosen on the card: `exact` — what the card showed (that command; that tool on that
 * file or agent; that call's arguments); `prefix` — run_command only, a rule ending in ` *` that covers the command;
 * `tool` — any call of the tool in this task (the blanket grant, offered in those words only).
 */
export const GRANT_KINDS = ['exact', 'prefix', 'tool'] as const;
export const GrantKind = z.enum(GRANT_KINDS);
export type GrantKind = z.infer<typeof GrantKind>;

export const GrantChoice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exact') }).strict(),
  z.object({ kind: z.literal('prefix'), rule: z.string().trim().min(1).max(2000) }).strict(),
  z.object({ kind: z.literal('tool') }).strict(),
]);
export type GrantChoice = z.infer<typeof GrantChoice>;

/**
 * The choices a card offers for a request: what its `exact` grant names (`value`: the command, path or agent; null for
 * `call`, whose arguments the card already shows) and, for a command, prefix rules that cover it, narrowest first.
 */
export const GrantOptions = z.object({
  target: z.object({ kind: GrantTargetKind, value: z.string().nullable() }),
  prefixes: z.array(z.string()),
});
export type GrantOptions = z.infer<typeof GrantOptions>;

/** The parts of a grant that decide what it covers (src-main/tools/grants.ts matches calls against them). */
export interface GrantScope {
  tool: string;
  kind: GrantKind;
  target: GrantTarget | null;
  rule: string | null;
}

export const TaskGrant = z.object({
  id: z.string(),
  taskId: z.string(),
  /** The tool request whose card it was chosen on. */
  requestId: z.string(),
  tool: z.string(),
  kind: GrantKind,
  /** `exact`: what it covers; null otherwise. */
  target: GrantTarget.nullable(),
  /** `prefix`: the rule (`git diff *`); null otherwise. */
  rule: z.string().nullable(),
  createdAt: z.string(),
  /** When a person revoked it; a revoked grant covers nothing. */
  revokedAt: z.string().nullable(),
});
export type TaskGrant = z.infer<typeof TaskGrant>;
