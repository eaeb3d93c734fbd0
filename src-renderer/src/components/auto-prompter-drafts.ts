// The Auto Prompter's rules as the Settings form edits them — each field a string, argument tests as rows — and back
// to the file's shape, unchanged for any rule the form did not touch; issues of the rules' schema (the form's own
// check, or main's 400) keyed by the form's fields: `rules.2.tool`, `rules.2.args.1`.
import type { AutoPrompterRule, PolicyAction } from '../../../src-shared/auto-prompter';
import type { FieldErrors } from './field-errors';

export const ARG_KINDS = ['regex', 'glob', 'equals'] as const;
export type ArgKind = (typeof ARG_KINDS)[number];

export interface ArgDraft {
  name: string;
  kind: ArgKind;
  value: string;
}

export interface RuleDraft {
  /** The row's identity while it is edited and moved (not saved). */
  key: number;
  id: string;
  tool: string;
  action: PolicyAction;
  /** instruct's text, or deny's reason. */
  words: string;
  args: ArgDraft[];
}

let nextKey = 1;

export const emptyRule = (): RuleDraft => ({ key: nextKey++, id: '', tool: '', action: 'deny', words: '', args: [] });

export function toDraft(rule: AutoPrompterRule): RuleDraft {
  const args = Object.entries(rule.match.args ?? {}).map(([name, m]): ArgDraft => {
    const kind = ARG_KINDS.find((k) => m[k] !== undefined) ?? 'equals';
    return { name, kind, value: m[kind] ?? '' };
  });
  const words = rule.action === 'instruct' ? rule.text : rule.action === 'deny' ? rule.reason : '';
  return { key: nextKey++, id: rule.id ?? '', tool: rule.match.tool, action: rule.action, words, args };
}

/** The rule as the file holds it; what the schema refuses is left for it to name. */
export function toRule(draft: RuleDraft): unknown {
  const args = Object.fromEntries(draft.args.map((a) => [a.name, { [a.kind]: a.value }]));
  const match = { tool: draft.tool, ...(draft.args.length > 0 ? { args } : {}) };
  const id = draft.id.trim() === '' ? {} : { id: draft.id.trim() };
  switch (draft.action) {
    case 'instruct':
      return { ...id, match, action: draft.action, text: draft.words };
    case 'deny':
      return { ...id, match, action: draft.action, reason: draft.words };
    case 'approve_once':
      return { ...id, match, action: draft.action };
    default:
      return draft.action satisfies never;
  }
}

/** Two rows testing the same argument would be one in the file: the second is refused here. */
export function duplicateArgs(drafts: readonly RuleDraft[]): FieldErrors {
  const out: FieldErrors = {};
  drafts.forEach((d, i) => {
    d.args.forEach((a, j) => {
      if (d.args.findIndex((b) => b.name === a.name) !== j) out[`rules.${i}.args.${j}`] = `${a.name} is tested twice`;
    });
  });
  return out;
}

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** An issue of the rules' schema under the form's field: `rules.i.match.args.<name>…` → that argument's row. */
export function ruleErrors(issues: readonly Issue[], drafts: readonly RuleDraft[]): FieldErrors {
  const out: FieldErrors = {};
  for (const { path, message } of issues) {
    const [top, index, ...rest] = path.map(String);
    if (top !== 'rules' || index === undefined) {
      out.form ??= message;
      continue;
    }
    const i = Number(index);
    let field = rest[0] === 'match' ? (rest[1] ?? 'tool') : (rest[0] ?? 'form');
    if (rest[0] === 'text' || rest[0] === 'reason') field = 'words';
    if (rest[0] === 'match' && rest[1] === 'args' && rest[2] !== undefined) {
      const row = drafts[i]?.args.findIndex((a) => a.name === rest[2]) ?? -1;
      field = row >= 0 ? `args.${row}` : 'args';
    }
    out[`rules.${i}.${field}`] ??= message;
  }
  return out;
}
