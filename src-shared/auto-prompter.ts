// The Auto Prompter's rules (spec §4.1), as `<workspace>/.maestro/auto-prompter.json` holds them and Settings edits
// them: on or off, and ordered rules that add an instruction, deny a call, or let one matching call run without a
// tool request. One schema for the file and the contract, so both check the same things. Format: src-main/tools/README.md.
import { z } from 'zod';
import { compileLinear } from './linear-regex';

export const POLICY_ACTIONS = ['instruct', 'deny', 'approve_once'] as const;
export const PolicyAction = z.enum(POLICY_ACTIONS);
export type PolicyAction = z.infer<typeof PolicyAction>;

/** At most this many rules in a file: they are evaluated before every tool call. */
export const MAX_RULES = 200;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

const regex = z
  .string()
  .min(1, 'must not be empty')
  .max(1000)
  .superRefine((source, ctx) => {
    // Checked with the engine that runs it (RE2, linear time), so a rule that is saved also runs.
    const compiled = compileLinear(source);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', message: compiled.error });
  });

/** One argument's test: a regular expression (searched, so anchor it), a path glob, or an exact value. */
export const ArgMatcher = z
  .strictObject({
    regex: regex.optional(),
    glob: text(1000).optional(),
    equals: z.string().max(10_000).optional(),
  })
  .refine(
    (m) => [m.regex, m.glob, m.equals].filter((x) => x !== undefined).length === 1,
    'give exactly one of regex, glob, equals',
  );
export type ArgMatcher = z.infer<typeof ArgMatcher>;

export const RuleMatch = z.strictObject({
  /** A tool name, or a glob over tool names (`mcp__github__*`, `*`). */
  tool: text(200),
  /** Top-level argument name → its test; every one must pass. */
  args: z.record(text(100), ArgMatcher).optional(),
});

/** Short, file-unique; shown in Policy Events and notices instead of anything the model wrote. */
const RuleId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-", starting with one');

const common = { id: RuleId.optional(), match: RuleMatch };

export const AutoPrompterRule = z.discriminatedUnion('action', [
  z.strictObject({ ...common, action: z.literal('instruct'), text: text(4000) }),
  z.strictObject({ ...common, action: z.literal('deny'), reason: text(1000) }),
  z
    .strictObject({ ...common, action: z.literal('approve_once') })
    // The spec's approval is bound to the call's arguments: a rule that would approve any call of a tool is refused.
    .refine((r) => Object.keys(r.match.args ?? {}).length > 0, {
      path: ['match', 'args'],
      message: 'approve_once is bound to the arguments: give at least one argument matcher',
    }),
]);
export type AutoPrompterRule = z.infer<typeof AutoPrompterRule>;

export const AutoPrompterSettings = z
  .strictObject({
    enabled: z.boolean(),
    rules: z.array(AutoPrompterRule).max(MAX_RULES).default([]),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.rules.forEach((rule, i) => {
      if (rule.id === undefined) return;
      if (seen.has(rule.id))
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `${rule.id} is used twice` });
      seen.add(rule.id);
    });
  });
export type AutoPrompterSettings = z.infer<typeof AutoPrompterSettings>;

/** No file: the Auto Prompter is off. */
export const AUTO_PROMPTER_OFF: AutoPrompterSettings = { enabled: false, rules: [] };

/** What Settings reads and gets back after a save: the default workspace's rules, or why they cannot be used. */
export const AutoPrompterView = z.object({
  /** null: the app has no default workspace (tasks get a folder each), so there is no file to edit. */
  workspacePath: z.string().nullable(),
  file: z.string().nullable(),
  exists: z.boolean(),
  /** The file's rules; AUTO_PROMPTER_OFF when there is none or it is broken. */
  settings: AutoPrompterSettings,
  /** Why the file cannot be used (naming the file and the field), or null. */
  error: z.string().nullable(),
});
export type AutoPrompterView = z.infer<typeof AutoPrompterView>;

/** How a rule is named to people: its id, else its place in the file. */
export const ruleLabel = (index: number, id: string | null | undefined): string => id ?? `rules[${index}]`;
