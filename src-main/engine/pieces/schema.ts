// The Piece file as people write it (snake_case, checked by zod so errors name the file's own fields), and the
// internal PieceDefinition it converts to.
import { z } from 'zod';
import { POLICY_TOOL_NAMES, SELECT_FACETS_TOOL } from '../../tools/names';
import { compileResultSchema } from './result-schema';
import { parseWhen, type WhenExpr } from './when-expr';

/** Every tool a piece may name: the built-ins and the engine's own (bridge-api.md's table). */
const TOOL_NAMES = [...POLICY_TOOL_NAMES, SELECT_FACETS_TOOL];

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ., - or _');

/** A count limit: a number, or `infinite` (no limit; TAKT's `max_steps: infinite`). */
const Limit = (fallback: number) =>
  z.union([z.number().int().min(1).max(1000), z.literal('infinite')]).default(fallback);
const limitOf = (value: number | 'infinite') => (value === 'infinite' ? Number.POSITIVE_INFINITY : value);

export const TransitionFile = z.strictObject({
  to: Name,
  when: z.string().default(''),
});

export const FacetPoolFile = z.strictObject({
  key: z.string().min(1),
  pool: z.string().min(1),
  max_selected: z.number().int().min(1).optional(),
  candidates: z
    .array(z.strictObject({ id: z.string().min(1), description: z.string().min(1), text: z.string().min(1) }))
    .min(1),
});

export const RouteFile = z.strictObject({
  /** No model runs the movement: the engine evaluates the rules as soon as it enters it. */
  system: z.boolean().default(false),
  /** The JSON schema the result must match (the model ends the movement with it as complete's message). */
  schema: z.record(z.string(), z.unknown()).optional(),
  /** The names `structured.<name>` reads → the movements whose results they are. */
  results: z.record(z.string(), Name).default({}),
  rules: z
    .array(
      z.strictObject({
        when: z.string().min(1),
        to: Name.optional(),
        end: z.enum(['complete', 'abort']).optional(),
      }),
    )
    .min(1),
});

export const MovementFile = z.strictObject({
  name: Name,
  description: z.string().default(''),
  guidance: z.string().default(''),
  /**
   * The step's instruction, sent in the user message when the movement starts (never in the system message), with
   * its placeholders ({task}, {previous_response}, {iteration}, …) filled at that moment.
   */
  instruction: z.string().default(''),
  /** Names of the reports this movement ends with (in its transition reason): what `{report:<name>}` reads. */
  reports: z.array(z.string().min(1)).default([]),
  /** Tools this movement may call; absent = every tool of the piece. */
  tools: z.array(z.string()).optional(),
  edit: z.boolean().default(false),
  max_iterations: z.number().int().min(1).max(1000).default(40),
  transitions: z.array(TransitionFile).default([]),
  /**
   * Pools of more facets the model may pick from at the start of the movement with `select_facets` (TAKT's
   * dynamic_facets): `key` is what the call names, each candidate's `text` its policies and knowledge.
   */
  facet_pools: z.array(FacetPoolFile).default([]),
  /** The engine routes this movement's end by its rules, not the model (TAKT's when() rules and system steps). */
  route: RouteFile.optional(),
});

/** A loop check: when `cycle` has run `threshold` times in a row, the `judge` movement decides how to go on. */
export const LoopMonitorFile = z.strictObject({
  cycle: z.array(Name).min(1),
  /** Movements left out when matching the cycle. */
  ignore: z.array(Name).default([]),
  threshold: z.number().int().min(1).max(1000),
  judge: Name,
});

export const PieceFile = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lowercase letters, digits, - or _'),
    name: z.string().min(1),
    description: z.string().default(''),
    start_movement: z.string().optional(),
    max_movements: Limit(20),
    revisit_limit: Limit(5),
    delegate: z
      .strictObject({ allowed: z.boolean().default(false), max_depth: z.number().int().min(0).max(5).default(1) })
      .default({ allowed: false, max_depth: 1 }),
    /** What this piece's jobs may spend on subtasks (spend-limits.ts); absent: the policy's or the default. */
    subtasks: z
      .strictObject({
        max_depth: z.number().int().min(0).max(10).optional(),
        max_count: z.number().int().min(0).max(1000).optional(),
      })
      .optional(),
    movements: z.array(MovementFile).min(1, 'must list at least one movement'),
    loop_monitors: z.array(LoopMonitorFile).default([]),
  })
  .superRefine((piece, ctx) => {
    const names = piece.movements.map((m) => m.name);
    const noMovement = `names no movement of this piece (movements: ${names.join(', ')})`;
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        ctx.addIssue({ code: 'custom', path: ['movements', i, 'name'], message: `${name} appears twice` });
    });
    if (piece.start_movement && !names.includes(piece.start_movement)) {
      ctx.addIssue({
        code: 'custom',
        path: ['start_movement'],
        message: noMovement,
      });
    }
    piece.loop_monitors.forEach((monitor, i) => {
      for (const [field, list] of [
        ['cycle', monitor.cycle],
        ['ignore', monitor.ignore],
        ['judge', [monitor.judge]],
      ] as const) {
        list.forEach((name, j) => {
          if (!names.includes(name)) {
            const at = field === 'judge' ? ['loop_monitors', i, field] : ['loop_monitors', i, field, j];
            ctx.addIssue({ code: 'custom', path: at, message: noMovement });
          }
        });
      }
    });
    piece.movements.forEach((m, i) => {
      m.transitions.forEach((t, j) => {
        if (!names.includes(t.to)) {
          ctx.addIssue({
            code: 'custom',
            path: ['movements', i, 'transitions', j, 'to'],
            message: noMovement,
          });
        }
      });
      m.route?.rules.forEach((rule, j) => {
        const at = ['movements', i, 'route', 'rules', j];
        if ((rule.to === undefined) === (rule.end === undefined))
          ctx.addIssue({ code: 'custom', path: at, message: 'a route rule has either to or end' });
        if (rule.to !== undefined && !names.includes(rule.to))
          ctx.addIssue({ code: 'custom', path: [...at, 'to'], message: noMovement });
        try {
          parseWhen(rule.when);
        } catch (error) {
          ctx.addIssue({ code: 'custom', path: [...at, 'when'], message: (error as Error).message });
        }
      });
      for (const [name, movement] of Object.entries(m.route?.results ?? {})) {
        if (!names.includes(movement))
          ctx.addIssue({ code: 'custom', path: ['movements', i, 'route', 'results', name], message: noMovement });
      }
      if (m.route?.schema) {
        try {
          compileResultSchema(m.route.schema);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            path: ['movements', i, 'route', 'schema'],
            message: (error as Error).message,
          });
        }
      }
      (m.tools ?? []).forEach((tool, j) => {
        if (!TOOL_NAMES.includes(tool)) {
          ctx.addIssue({
            code: 'custom',
            path: ['movements', i, 'tools', j],
            message: `unknown tool ${tool} (tools: ${TOOL_NAMES.join(', ')})`,
          });
        }
      });
    });
  });
export type PieceFile = z.output<typeof PieceFile>;

export interface TransitionDefinition {
  to: string;
  when: string;
}

export interface MovementDefinition {
  name: string;
  description: string;
  guidance: string;
  /** The instruction template sent in the user message when the movement starts (none: ''). */
  instruction?: string;
  /** The reports this movement ends with, for `{report:<name>}`. */
  reports?: string[];
  /** null = every tool of the piece. */
  tools: string[] | null;
  edit: boolean;
  maxIterations: number;
  transitions: TransitionDefinition[];
  /** Pools the model may pick more facets from with `select_facets` (none: []). */
  facetPools?: FacetPoolDefinition[];
  /** Set when the engine, not the model, decides where the movement goes. */
  route?: RouteDefinition;
}

export interface FacetPoolDefinition {
  key: string;
  pool: string;
  maxSelected?: number;
  candidates: { id: string; description: string; text: string }[];
}

export interface RouteDefinition {
  system: boolean;
  schema?: Record<string, unknown>;
  /** `structured.<name>` → the movement whose result it is. */
  results: Record<string, string>;
  rules: { when: WhenExpr; source: string; to?: string; end?: 'complete' | 'abort' }[];
}

export interface LoopMonitor {
  cycle: string[];
  ignore: string[];
  threshold: number;
  judge: string;
}

export interface PieceDefinition {
  id: string;
  name: string;
  description: string;
  startMovement: string;
  movements: MovementDefinition[];
  /** Infinity: no limit. */
  maxMovements: number;
  /** Infinity: no limit. */
  revisitLimit: number;
  loopMonitors: LoopMonitor[];
  delegate: { allowed: boolean; maxDepth: number };
  /** The piece's own subtask limits, when it sets them (spend-limits.ts has the defaults). */
  subtasks?: { maxDepth?: number; maxCount?: number };
  file: string;
  source: 'builtin' | 'workspace';
  format: 'maestro' | 'takt';
}

export function fromPieceFile(p: PieceFile, file: string, source: PieceDefinition['source']): PieceDefinition {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    startMovement: p.start_movement ?? (p.movements[0] as PieceFile['movements'][number]).name,
    movements: p.movements.map((m) => ({
      name: m.name,
      description: m.description,
      guidance: m.guidance,
      instruction: m.instruction,
      reports: m.reports,
      tools: m.tools ?? null,
      edit: m.edit,
      maxIterations: m.max_iterations,
      transitions: m.transitions.map((t) => ({ to: t.to, when: t.when })),
      ...(m.facet_pools.length > 0
        ? {
            facetPools: m.facet_pools.map((p) => ({
              key: p.key,
              pool: p.pool,
              ...(p.max_selected !== undefined ? { maxSelected: p.max_selected } : {}),
              candidates: p.candidates.map((c) => ({ ...c })),
            })),
          }
        : {}),
      ...(m.route
        ? {
            route: {
              system: m.route.system,
              ...(m.route.schema ? { schema: m.route.schema } : {}),
              results: { ...m.route.results },
              rules: m.route.rules.map((r) => ({
                when: parseWhen(r.when),
                source: r.when,
                ...(r.to !== undefined ? { to: r.to } : {}),
                ...(r.end !== undefined ? { end: r.end } : {}),
              })),
            },
          }
        : {}),
    })),
    maxMovements: limitOf(p.max_movements),
    revisitLimit: limitOf(p.revisit_limit),
    loopMonitors: p.loop_monitors.map((l) => ({ ...l })),
    delegate: { allowed: p.delegate.allowed, maxDepth: p.delegate.max_depth },
    ...(p.subtasks
      ? {
          subtasks: {
            ...(p.subtasks.max_depth !== undefined ? { maxDepth: p.subtasks.max_depth } : {}),
            ...(p.subtasks.max_count !== undefined ? { maxCount: p.subtasks.max_count } : {}),
          },
        }
      : {}),
    file,
    source,
    format: 'maestro',
  };
}

/** Every movement any transition of the piece can lead to, in first-seen order: the `transition` tool's enum. */
export function transitionTargets(piece: PieceDefinition): string[] {
  const targets: string[] = [];
  for (const m of piece.movements) for (const t of m.transitions) if (!targets.includes(t.to)) targets.push(t.to);
  return targets;
}

export function movementOf(piece: PieceDefinition, name: string): MovementDefinition | undefined {
  return piece.movements.find((m) => m.name === name);
}

/**
 * The movement a job starts in (spec §2 Q): resume > override > piece start; a name that is no movement of the piece
 * falls through with a warning.
 */
export function chooseStartMovement(
  piece: PieceDefinition,
  resume: string | null,
  override: string | null,
  warn: (message: string) => void,
): MovementDefinition {
  for (const [name, source] of [
    [resume, 'resumeMovement'],
    [override, 'start override'],
  ] as const) {
    if (!name) continue;
    const movement = movementOf(piece, name);
    if (movement) return movement;
    warn(`${source} ${name} is not a movement of piece ${piece.id}; falling back`);
  }
  return movementOf(piece, piece.startMovement) as MovementDefinition;
}

/** Where a job's run starts and what fell through on the way (P3.04–P3.07): chosen once, when the job is prepared. */
export function startOf(piece: PieceDefinition, resume: string | null): { name: string; warnings: string[] } {
  const warnings: string[] = [];
  const { name } = chooseStartMovement(piece, resume, null, (w) => warnings.push(w));
  return { name, warnings };
}
