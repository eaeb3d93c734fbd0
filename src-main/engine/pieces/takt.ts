// Imports TAKT-style workflow files (`steps` or the older `movements`, each with `rules`) into MAESTRO's Piece
// shape, so people can bring the pieces they already have. The mapping is documented in pieces/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const TaktRule = z.looseObject({ condition: z.string().default(''), next: z.string().optional() });
type TaktStep = {
  name: string;
  edit?: boolean;
  allowed_tools?: string[];
  instruction?: string;
  instruction_template?: string;
  persona?: string;
  rules?: z.output<typeof TaktRule>[];
  parallel?: TaktStep[];
};
const TaktStepSchema: z.ZodType<TaktStep> = z.lazy(() =>
  z.looseObject({
    name: z.string().min(1),
    edit: z.boolean().optional(),
    allowed_tools: z.array(z.string()).optional(),
    instruction: z.string().optional(),
    instruction_template: z.string().optional(),
    persona: z.string().optional(),
    rules: z.array(TaktRule).optional(),
    parallel: z.array(TaktStepSchema).optional(),
  }),
);

export const TaktPieceFile = z
  .looseObject({
    name: z.string().min(1),
    description: z.string().default(''),
    initial_step: z.string().optional(),
    initial_movement: z.string().optional(),
    max_steps: z.number().int().optional(),
    max_movements: z.number().int().optional(),
    max_iterations: z.number().int().optional(),
    steps: z.array(TaktStepSchema).optional(),
    movements: z.array(TaktStepSchema).optional(),
    instructions: z.record(z.string(), z.string()).optional(),
    personas: z.record(z.string(), z.string()).optional(),
  })
  .refine((p) => (p.steps ?? p.movements)?.length, { message: 'must list steps (or movements)', path: ['steps'] });

/** A TAKT file is recognised by its own words: steps, rules, initial_movement/initial_step, or no `id`. */
export function looksLikeTakt(raw: unknown): boolean {
  if (!raw || typeof raw !== 'object') return false;
  const r = raw as Record<string, unknown>;
  if ('steps' in r || 'initial_step' in r || 'initial_movement' in r || 'max_iterations' in r) return true;
  const movements = Array.isArray(r.movements) ? (r.movements as Record<string, unknown>[]) : [];
  return !('id' in r) && movements.some((m) => m && typeof m === 'object' && ('rules' in m || 'allowed_tools' in m));
}

const TOOL_MAP: Record<string, string[]> = {
  Read: ['read_file', 'list_dir'],
  LS: ['list_dir'],
  Glob: ['glob'],
  Grep: ['grep'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Write: ['write_file'],
  Bash: ['run_command'],
};
const END = new Set(['COMPLETE', 'ABORT']);

/** Converts a parsed TAKT file into the raw MAESTRO piece object (validated afterwards like any piece file). */
export function convertTakt(raw: z.output<typeof TaktPieceFile>, file: string): Record<string, unknown> {
  const dir = path.dirname(file);
  const text = (map: Record<string, string> | undefined, key: string | undefined): string => {
    if (!key) return '';
    const ref = map?.[key];
    if (ref) {
      try {
        return fs.readFileSync(path.resolve(dir, ref), 'utf8').trim();
      } catch {
        return `(${key}: ${ref} not found)`;
      }
    }
    return key; // An inline instruction.
  };
  const steps = (raw.steps ?? raw.movements) as TaktStep[];

  const convertStep = (step: TaktStep) => {
    const parts = step.parallel?.length ? step.parallel : [step];
    const guidance = parts
      .map((p) => {
        const persona = text(raw.personas, p.persona);
        const instruction = text(raw.instructions, p.instruction ?? p.instruction_template);
        const body = [persona, instruction].filter(Boolean).join('\n\n');
        return parts.length > 1 ? `## ${p.name}\n${body}` : body;
      })
      .join('\n\n');
    const tools = new Set<string>();
    for (const p of parts)
      for (const t of p.allowed_tools ?? []) for (const mapped of TOOL_MAP[t] ?? []) tools.add(mapped);
    const rules = step.rules ?? [];
    const ruleText = rules
      .filter((r) => r.next)
      .map((r) => {
        const action =
          r.next === 'COMPLETE'
            ? 'call `complete` with status "success"'
            : r.next === 'ABORT'
              ? 'call `complete` with status "failure"'
              : `call \`transition\` with next "${r.next}"`;
        return `- ${r.condition || 'otherwise'}: ${action}`;
      })
      .join('\n');
    return {
      name: step.name,
      description: '',
      guidance: ruleText ? `${guidance}\n\nWhen you are done with this step:\n${ruleText}` : guidance,
      ...(tools.size > 0 ? { tools: [...tools] } : {}),
      edit: parts.some((p) => p.edit === true),
      transitions: rules
        .filter((r) => r.next && !END.has(r.next) && r.next !== step.name)
        .map((r) => ({ to: r.next as string, when: r.condition })),
    };
  };

  return {
    id: path
      .basename(file)
      .replace(/\.ya?ml$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '-'),
    name: raw.name,
    description: raw.description,
    ...((raw.initial_step ?? raw.initial_movement) ? { start_movement: raw.initial_step ?? raw.initial_movement } : {}),
    ...((raw.max_steps ?? raw.max_movements ?? raw.max_iterations)
      ? { max_movements: raw.max_steps ?? raw.max_movements ?? raw.max_iterations }
      : {}),
    movements: steps.map(convertStep),
  };
}
