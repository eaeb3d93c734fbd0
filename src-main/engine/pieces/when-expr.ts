// TAKT's `when(...)` rule conditions, which the engine decides (no model): alternatives joined by `||`, each a list of
// clauses joined by `&&`; a clause is `true`, `false`, a comparison (== != > >= < <=) of a state reference and a
// literal (a "string", a number, true, false, null), `contains(<reference>, <literal>)`, or a bare reference (true
// when it is truthy). A reference reads an earlier step's structured result: `structured.<step>.<field>…`, where
// `.length` of a list or a string is its length. TAKT's other references (`context.`, `effect.`) come from system
// inputs and effects MAESTRO does not run, and `exists()` walks them: each is refused where the piece is loaded.

export type WhenLiteral = string | number | boolean | null;
type Operand = { kind: 'literal'; value: WhenLiteral } | { kind: 'ref'; step: string; path: string[] };
type Clause =
  | { kind: 'bool'; value: boolean }
  | { kind: 'ref'; ref: Extract<Operand, { kind: 'ref' }> }
  | { kind: 'compare'; op: '==' | '!=' | '>' | '>=' | '<' | '<='; left: Operand; right: Operand }
  | { kind: 'contains'; list: Extract<Operand, { kind: 'ref' }>; value: Operand };

export interface WhenExpr {
  alternatives: Clause[][];
  /** The steps whose structured results the expression reads. */
  steps: string[];
}

const OPS = ['>=', '<=', '!=', '==', '>', '<'] as const;

/** Splits at `sep` outside "strings" and parentheses. */
function split(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  if (quoted || depth !== 0) throw new Error(`unbalanced quotes or parentheses in when(${text})`);
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

function operand(raw: string): Operand {
  const text = raw.trim();
  if (text === '') throw new Error('an empty operand');
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true' };
  if (text === 'null') return { kind: 'literal', value: null };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: 'literal', value: Number(text) };
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`an unterminated string ${text}`);
    return { kind: 'literal', value: JSON.parse(text) as string };
  }
  const segments = text.split('.');
  if (segments.some((s) => !/^[A-Za-z0-9_-]+$/.test(s))) throw new Error(`cannot read the operand ${text}`);
  const [root, step, ...path] = segments as [string, string | undefined, ...string[]];
  if (root === 'context' || root === 'effect')
    throw new Error(`${root}.… reads TAKT's system inputs and effects, which MAESTRO does not run`);
  if (root === 'companion') throw new Error('transition rules cannot read companion.… (companions only advise)');
  if (root !== 'structured' || !step || path.length === 0)
    throw new Error(`${text} is not a reference of the form structured.<step>.<field>`);
  return { kind: 'ref', step, path };
}

function clause(raw: string): Clause {
  const text = raw.trim();
  if (text === 'true' || text === 'false') return { kind: 'bool', value: text === 'true' };
  if (text.startsWith('exists(')) throw new Error("exists() over TAKT's system inputs is not supported");
  const contains = /^contains\((.*)\)$/s.exec(text);
  if (contains) {
    const args = split(contains[1] as string, ',');
    if (args.length !== 2) throw new Error(`contains() takes a reference and a value (${text})`);
    const list = operand(args[0] as string);
    if (list.kind !== 'ref') throw new Error(`contains() reads a reference (${text})`);
    return { kind: 'contains', list, value: operand(args[1] as string) };
  }
  for (const op of OPS) {
    const at = findOp(text, op);
    if (at < 0) continue;
    const left = operand(text.slice(0, at));
    const right = operand(text.slice(at + op.length));
    if (['>', '>=', '<', '<='].includes(op)) {
      for (const side of [left, right])
        if (side.kind === 'literal' && typeof side.value !== 'number')
          throw new Error(`${op} compares numbers (${text})`);
    }
    return { kind: 'compare', op, left, right };
  }
  const ref = operand(text);
  if (ref.kind !== 'ref') throw new Error(`a clause is true, false, a comparison or a reference (${text})`);
  return { kind: 'ref', ref };
}

/** The first `op` outside a string (a longer operator that contains it is matched first by the caller). */
function findOp(text: string, op: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"' && text[i - 1] !== '\\') quoted = !quoted;
    if (quoted || !text.startsWith(op, i)) continue;
    // `>` inside `>=`, `=` of `==`/`!=` are other operators.
    const next = text[i + op.length];
    if (op.length === 1 && next === '=') continue;
    return i;
  }
  return -1;
}

/** The parsed expression inside `when(...)`; an Error naming what is wrong when it cannot be read. */
export function parseWhen(inner: string): WhenExpr {
  const alternatives = split(inner, '||').map((alt) => split(alt, '&&').map(clause));
  const steps = new Set<string>();
  for (const alt of alternatives)
    for (const c of alt) {
      if (c.kind === 'ref') steps.add(c.ref.step);
      if (c.kind === 'contains') steps.add(c.list.step);
      if (c.kind === 'compare') for (const o of [c.left, c.right]) if (o.kind === 'ref') steps.add(o.step);
    }
  return { alternatives, steps: [...steps] };
}

/** `when(<inner>)` → its inner text, or null for any other condition. */
export function whenInner(condition: string): string | null {
  const m = /^\s*when\((.*)\)\s*$/s.exec(condition);
  return m ? (m[1] as string) : null;
}

/** Whether `expr` holds over the structured results so far (`results`: by step name; a missing one reads as undefined). */
export function evaluateWhen(expr: WhenExpr, results: (step: string) => unknown): boolean {
  const read = (o: Operand): unknown => {
    if (o.kind === 'literal') return o.value;
    let value: unknown = results(o.step);
    for (const key of o.path) {
      if (value === null || value === undefined) return undefined;
      if (key === 'length' && (Array.isArray(value) || typeof value === 'string')) value = value.length;
      else if (typeof value === 'object' && Object.hasOwn(value as object, key))
        value = (value as Record<string, unknown>)[key];
      else return undefined;
    }
    return value;
  };
  const holds = (c: Clause): boolean => {
    switch (c.kind) {
      case 'bool':
        return c.value;
      case 'ref':
        return Boolean(read(c.ref));
      case 'contains': {
        const list = read(c.list);
        const value = read(c.value);
        return Array.isArray(list) ? list.some((item) => item === value) : false;
      }
      case 'compare': {
        const l = read(c.left);
        const r = read(c.right);
        if (c.op === '==') return l === r || (l === undefined && r === null);
        if (c.op === '!=') return !(l === r || (l === undefined && r === null));
        if (typeof l !== 'number' || typeof r !== 'number') return false;
        return c.op === '>' ? l > r : c.op === '>=' ? l >= r : c.op === '<' ? l < r : l <= r;
      }
    }
  };
  return expr.alternatives.some((alt) => alt.every(holds));
}
