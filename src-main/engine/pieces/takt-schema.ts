// The fields of a TAKT workflow file, sorted three ways: mapped onto MAESTRO's Piece model, ignored by design (they
// choose a provider, a model, a session or a UI category, which MAESTRO decides elsewhere), and named as unsupported —
// a file using one is refused with the field and its line, never half-loaded. The zod schemas check the mapped
// fields' types, with TAKT's own field names in the messages (pieces/README.md has the mapping, field by field).
import { z } from 'zod';

const Ref = z.string().min(1);
const RefList = z.union([Ref, z.array(Ref)]);

export const TaktRule = z.looseObject({
  condition: z.string().min(1).optional(),
  next: z.string().min(1).optional(),
  return: z.string().min(1).optional(),
  appendix: z.string().optional(),
  requires_user_input: z.boolean().optional(),
  interactive_only: z.boolean().optional(),
});
export type TaktRule = z.output<typeof TaktRule>;

const ReportEntry = z.union([
  z.looseObject({ name: z.string().min(1), format: z.string().optional(), order: z.string().optional() }),
  // February 2026: `- Scope: 02-coder-scope.md` (label: file name).
  z.record(z.string(), z.string()),
]);

export const TaktStep = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  kind: z.enum(['agent', 'workflow_call', 'system']).optional(),
  call: Ref.optional(),
  // A called workflow's arguments: facet names, lists of them, or a companion selection ({ fixed, pool, moderator }).
  args: z.record(z.string(), z.unknown()).optional(),
  vars: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  persona: Ref.optional(),
  policy: RefList.optional(),
  knowledge: RefList.optional(),
  instruction: Ref.optional(),
  instruction_template: Ref.optional(),
  edit: z.boolean().optional(),
  required_permission_mode: z.enum(['readonly', 'edit', 'full']).optional(),
  permission_mode: z.enum(['readonly', 'edit', 'full']).optional(),
  allowed_tools: z.array(z.string()).optional(),
  capabilities: RefList.optional(),
  provider_options: z
    .looseObject({
      extends: Ref.optional(),
      claude: z.looseObject({ allowed_tools: z.array(z.string()).optional() }).optional(),
      opencode: z.looseObject({ allowed_tools: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  rules: z.array(TaktRule).optional(),
  output_contracts: z.looseObject({ report: z.array(ReportEntry).optional() }).optional(),
  quality_gates: z.array(z.string()).optional(),
  pass_previous_response: z.boolean().optional(),
  allow_git_commit: z.boolean().optional(),
  parallel: z.unknown().optional(),
  /** More policies and knowledge from one of the workflow's `facet_pools`, chosen when the step starts. */
  dynamic_facets: z
    .strictObject({
      pool: Ref,
      max_selected: z.number().int().min(1).optional(),
      selector: z.strictObject({ persona: Ref.optional(), instruction: Ref }).optional(),
    })
    .optional(),
  /** Read-only reviewers of the step's change: names of companions/<name>.yaml, or { fixed, pool, moderator }. */
  companion: z
    .union([
      z.array(Ref),
      z.strictObject({ fixed: z.array(Ref).optional(), pool: z.array(Ref).optional(), moderator: Ref.optional() }),
    ])
    .optional(),
  /** A completeness check of the step's result, and what to do when it falls short (review_completion: the old name). */
  completion_retry: z
    .strictObject({
      retry_instruction: Ref,
      min_retry: z.number().int().min(0).max(4).optional(),
      max_retry: z.number().int().min(0).optional(),
    })
    .optional(),
  review_completion: z
    .strictObject({
      retry_instruction: Ref,
      min_retry: z.number().int().min(0).max(4).optional(),
      max_retry: z.number().int().min(0).optional(),
    })
    .optional(),
  /** The step's result is a JSON object of the workflow's `schemas` (its `when(structured.…)` rules read it). */
  structured_output: z.strictObject({ schema_ref: Ref }).optional(),
  /** A system step: run by the engine, no agent (`kind: system` says the same). */
  mode: z.literal('system').optional(),
  system_inputs: z.array(z.unknown()).optional(),
  effects: z.array(z.unknown()).optional(),
  delay_before_ms: z.number().int().min(0).optional(),
  team_leader: z
    .strictObject({
      persona: Ref.optional(),
      max_parts: z.number().int().min(1).max(3).optional(),
      // TAKT's later names: max_concurrency (parts at once), initial_max_parts (the first plan), inspect_tools.
      max_concurrency: z.number().int().min(1).max(3).optional(),
      initial_max_parts: z.number().int().min(1).optional(),
      refill_threshold: z.number().int().min(0).optional(),
      fail_on_part_error: z.boolean().optional(),
      timeout_ms: z.number().int().min(1).optional(), // ignored: MAESTRO's LLM profile times its calls
      inspect_tools: z.array(z.string()).optional(),
      part_persona: Ref.optional(),
      part_tags: z.array(z.string()).optional(), // ignored: provider routing by tag
      part_allowed_tools: z.array(z.string()).optional(),
      part_edit: z.boolean().optional(),
      part_permission_mode: z.enum(['readonly', 'edit', 'full']).optional(),
    })
    .refine((t) => t.max_parts === undefined || t.max_concurrency === undefined, {
      message: 'max_parts and max_concurrency cannot be used together',
      path: ['max_concurrency'],
    })
    .refine((t) => (t.refill_threshold ?? 0) <= (t.max_parts ?? t.max_concurrency ?? 3), {
      message: 'refill_threshold must be at most max_parts',
      path: ['refill_threshold'],
    })
    .optional(),
});
export type TaktStep = z.output<typeof TaktStep>;

export const TaktWorkflow = z.looseObject({
  name: z.string().min(1),
  description: z.string().default(''),
  initial_step: z.string().optional(),
  initial_movement: z.string().optional(),
  max_steps: z.union([z.number().int().min(1), z.literal('infinite')]).optional(),
  max_movements: z.union([z.number().int().min(1), z.literal('infinite')]).optional(),
  max_iterations: z.number().int().min(1).optional(),
  steps: z.array(z.unknown()).optional(),
  movements: z.array(z.unknown()).optional(),
  personas: z.record(z.string(), z.string()).optional(),
  policies: z.record(z.string(), z.string()).optional(),
  knowledge: z.record(z.string(), z.string()).optional(),
  instructions: z.record(z.string(), z.string()).optional(),
  report_formats: z.record(z.string(), z.string()).optional(),
  capabilities: RefList.optional(),
  /** Named pools of more facets a step may take (`dynamic_facets`): inline, or `uses: <facet-pools/name>`. */
  facet_pools: z
    .record(
      z.string(),
      z.looseObject({
        uses: Ref.optional(),
        policies: z.record(z.string(), z.string()).optional(),
        knowledge: z.record(z.string(), z.string()).optional(),
        candidates: z.array(z.unknown()).optional(),
      }),
    )
    .optional(),
  /** `structured_output.schema_ref` → a schema name (`schemas/<name>.json`). */
  schemas: z.record(z.string(), z.string()).optional(),
  /** Workflow-wide rules: `workflows/rules/<ref>.md`, in every agent step's instruction. */
  all_steps: z
    .strictObject({
      rules: z
        .array(
          z.union([
            Ref,
            z.strictObject({
              ref: Ref,
              position: z.enum(['after_execution_rules', 'before_instruction']).default('after_execution_rules'),
            }),
          ]),
        )
        .default([]),
    })
    .optional(),
  loop_monitors: z
    .array(
      z.looseObject({
        cycle: z.array(z.string().min(1)).min(1),
        ignore_steps: z.array(z.string().min(1)).optional(),
        threshold: z.number().int().min(1),
        judge: z.looseObject({
          persona: Ref.optional(),
          instruction: Ref.optional(),
          instruction_template: Ref.optional(),
          policy: RefList.optional(),
          knowledge: RefList.optional(),
          rules: z.array(TaktRule).min(1),
        }),
      }),
    )
    .optional(),
  subworkflow: z
    .looseObject({
      callable: z.boolean().optional(),
      returns: z.array(z.string()).optional(),
      params: z.record(z.string(), z.looseObject({ default: z.unknown().optional() })).optional(),
    })
    .optional(),
});
export type TaktWorkflow = z.output<typeof TaktWorkflow>;

type Fields = Record<string, string>;

/** Workflow fields MAESTRO leaves aside, and why (README). */
const WORKFLOW_IGNORED = new Set([
  'workflow_config', // provider, model, provider_options: MAESTRO's LLM profile decides
  'piece_config',
  'interactive_mode',
  'auto_routing',
  'rate_limit_fallback',
]);
const WORKFLOW_MAPPED = new Set(Object.keys(TaktWorkflow.shape));

/** Workflow fields a file may not use here, each with what it would need. */
const WORKFLOW_UNSUPPORTED: Fields = {
  finding_contract: "TAKT's Finding Contract (a findings ledger kept by the engine) is not supported",
};

const STEP_IGNORED = new Set([
  'session', // MAESTRO keeps one conversation per job
  'session_key',
  'persona_name',
  'tags',
  'provider',
  'model',
  'promotion',
  'overrides',
  'concurrency', // parallel parts run one after another
  'requires_user_input', // MAESTRO can always ask; rules with requires_user_input become questions
  'with', // consumed by `uses`
  'uses',
  'params',
]);
const STEP_MAPPED = new Set(Object.keys(TaktStep.shape));

const STEP_UNSUPPORTED: Fields = {
  arpeggio: 'arpeggio (data-driven batch) steps are not supported',
  mcp_servers: "step-level MCP servers are not supported (MAESTRO's MCP servers come from .maestro/mcp.json)",
};

/** TAKT's team leader modes (finding_contract_fix, …) run on its Finding Contract ledger. */
const TEAM_LEADER_MODE = "a team leader mode drives TAKT's Finding Contract ledger, which MAESTRO does not keep";

const RULE_FIELDS = new Set(Object.keys(TaktRule.shape));

/** What is wrong with an object's fields, as [field, message]; an empty list when nothing is. */
function checkFields(
  value: Record<string, unknown>,
  mapped: Set<string>,
  ignored: Set<string>,
  unsupported: Fields,
): [string, string][] {
  const problems: [string, string][] = [];
  for (const key of Object.keys(value)) {
    if (mapped.has(key) || ignored.has(key)) continue;
    problems.push([key, unsupported[key] ?? `${key} is not a TAKT field MAESTRO knows`]);
  }
  return problems;
}

export function workflowProblems(value: Record<string, unknown>): [string, string][] {
  const problems = checkFields(value, WORKFLOW_MAPPED, WORKFLOW_IGNORED, WORKFLOW_UNSUPPORTED);
  const sub = value.subworkflow as Record<string, unknown> | undefined;
  if (sub && typeof sub === 'object' && sub.requires_finding_contract === true) {
    problems.push([
      'subworkflow.requires_finding_contract',
      "this workflow needs TAKT's Finding Contract (a findings ledger kept by the engine), which is not supported",
    ]);
  }
  return problems;
}

export function stepProblems(value: Record<string, unknown>): [string, string][] {
  const problems = checkFields(value, STEP_MAPPED, STEP_IGNORED, STEP_UNSUPPORTED);
  problems.push(...systemStepProblems(value));
  const leader = value.team_leader as Record<string, unknown> | undefined;
  if (leader && typeof leader === 'object' && leader.mode !== undefined) {
    problems.push([
      'team_leader.mode',
      `team_leader.mode ${String(leader.mode)} is not supported (${TEAM_LEADER_MODE})`,
    ]);
  }
  if (value.completion_retry !== undefined && value.review_completion !== undefined)
    problems.push(['review_completion', 'review_completion (the old name of completion_retry) cannot be used with it']);
  const together = ['parallel', 'arpeggio', 'team_leader'].filter((k) => value[k] !== undefined);
  if (together.length > 1) problems.push([together[1] as string, `${together.join(' and ')} cannot be used together`]);
  const gates = Array.isArray(value.quality_gates) ? value.quality_gates : [];
  gates.forEach((gate, i) => {
    if (typeof gate !== 'string') problems.push([`quality_gates.${i}`, 'command quality gates are not supported']);
  });
  const rules = Array.isArray(value.rules) ? value.rules : [];
  rules.forEach((rule, i) => {
    if (!rule || typeof rule !== 'object') return;
    for (const key of Object.keys(rule)) {
      if (key === 'when') problems.push([`rules.${i}.when`, 'state predicates (when) are not supported']);
      else if (!RULE_FIELDS.has(key)) problems.push([`rules.${i}.${key}`, `${key} is not a TAKT rule field`]);
    }
  });
  return problems;
}

/** What an agent step of a system step may not carry (TAKT's system schema refuses them too). */
const AGENT_FIELDS = [
  'persona',
  'instruction',
  'instruction_template',
  'policy',
  'knowledge',
  'structured_output',
  'output_contracts',
  'quality_gates',
  'companion',
  'dynamic_facets',
  'parallel',
  'team_leader',
];

/**
 * A system step runs here when it only routes: its `when()` rules read earlier steps' structured results. What TAKT's
 * engine reads or does on GitHub and in its task queue (system_inputs, effects) has no counterpart in MAESTRO, and a
 * timed wait (delay_before_ms) none either: a step using one is refused, naming it.
 */
function systemStepProblems(value: Record<string, unknown>): [string, string][] {
  const problems: [string, string][] = [];
  const system = value.kind === 'system' || value.mode === 'system';
  if (value.kind === 'system' && value.mode !== undefined)
    problems.push(['mode', 'kind: system and mode: system cannot be used together']);
  const listed = (field: 'system_inputs' | 'effects') => (Array.isArray(value[field]) ? value[field] : []);
  listed('system_inputs').forEach((input, i) => {
    const type = (input as { type?: unknown } | null)?.type;
    problems.push([
      `system_inputs.${i}`,
      `system input ${String(type)} is not supported (TAKT's engine reads it from GitHub or its task queue, which MAESTRO does not have)`,
    ]);
  });
  listed('effects').forEach((effect, i) => {
    const type = (effect as { type?: unknown } | null)?.type;
    problems.push([
      `effects.${i}`,
      `system effect ${String(type)} is not supported (TAKT's engine does it on GitHub or in its task queue, which MAESTRO does not have)`,
    ]);
  });
  if (value.delay_before_ms !== undefined)
    problems.push(['delay_before_ms', 'delay_before_ms (a timed wait before the step) is not supported']);
  if (!system) {
    if (value.system_inputs !== undefined && listed('system_inputs').length === 0)
      problems.push(['system_inputs', 'only a system step has system_inputs']);
    return problems;
  }
  for (const field of AGENT_FIELDS) {
    if (value[field] !== undefined) problems.push([field, `a system step cannot have ${field} (no agent runs it)`]);
  }
  const rules = Array.isArray(value.rules) ? (value.rules as { condition?: unknown }[]) : [];
  if (rules.length === 0) problems.push(['rules', 'a system step routes by its when() rules: it must have some']);
  rules.forEach((rule, i) => {
    if (typeof rule?.condition !== 'string' || !/^\s*when\(/.test(rule.condition))
      problems.push([`rules.${i}.condition`, 'a system step routes only by when() conditions (no agent judges it)']);
  });
  return problems;
}
