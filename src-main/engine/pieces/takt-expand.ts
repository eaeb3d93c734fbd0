// What TAKT's loader does to a step before it is read: `{ $param: name }` values replaced by a called workflow's
// arguments (or its defaults) and a fragment's `with` bindings — a list item that is a list parameter is spliced in
// place — and `uses: <fragment>` expanded from `steps/<fragment>.yaml` beside the workflow folder, the caller's fields
// over the fragment's (objects merged, lists replaced), a parallel fragment's rules given as `{ self, parallel }`.
import path from 'node:path';
import { TaktError, type TaktFiles, YamlFile } from './takt-files';

type Json = unknown;
type Obj = Record<string, Json>;
type At = { rel: string; path: (string | number)[] };

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const paramName = (v: Json): string | null =>
  isObj(v) && Object.keys(v).length === 1 && typeof v.$param === 'string' ? v.$param : null;

/** `node` with every `{ $param: name }` replaced by its binding; an unbound name is an error at `at`. */
export function bindParams(node: Json, bindings: Readonly<Record<string, Json>>, at: At): Json {
  const bound = (name: string, where: At): Json => {
    if (!(name in bindings)) {
      const known = Object.keys(bindings);
      throw new TaktError(`$param ${name} is not a parameter here (parameters: ${known.join(', ') || 'none'})`, where);
    }
    return bindings[name];
  };
  const walk = (value: Json, where: At): Json => {
    const name = paramName(value);
    if (name !== null) return bound(name, where);
    if (Array.isArray(value)) {
      return value.flatMap((item, i) => {
        const itemName = paramName(item);
        const sub = { rel: where.rel, path: [...where.path, i] };
        if (itemName === null) return [walk(item, sub)];
        const v = bound(itemName, sub);
        return Array.isArray(v) ? v : [v];
      });
    }
    if (isObj(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, { rel: where.rel, path: [...where.path, k] })]),
      );
    }
    return value;
  };
  return walk(node, at);
}

/** Objects merged key by key (the caller's win), anything else replaced by the caller's. */
function merge(base: Json, over: Json): Json {
  if (!isObj(base) || !isObj(over)) return over === undefined ? base : over;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
  return out;
}

const MAX_FRAGMENTS = 64;

/** Where a step came from: the fragment files `uses` read, outermost first. */
export interface Expanded {
  step: Obj;
  fragments: string[];
}

/**
 * A step with its `uses` expanded (recursively; a cycle or more than 64 levels is an error). `workflowRel` names the
 * workflow file whose folder's sibling `steps/` holds the fragments.
 */
export function expandUses(step: Obj, files: TaktFiles, workflowRel: string, at: At, chain: string[] = []): Expanded {
  if (step.uses === undefined) return { step, fragments: [] };
  const uses = step.uses;
  const usesAt = { rel: at.rel, path: [...at.path, 'uses'] };
  if (typeof uses !== 'string' || uses === '') throw new TaktError('uses must name a step fragment', usesAt);
  if (uses.startsWith('@'))
    throw new TaktError(`uses ${uses}: repertoire package references are not supported`, usesAt);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(uses)) {
    throw new TaktError(`uses ${uses}: a fragment is named by a bare name (no paths)`, usesAt);
  }
  const top = path.posix.dirname(path.posix.dirname(workflowRel));
  const candidates = ['yaml', 'yml'].map((ext) => path.posix.join(top, 'steps', `${uses}.${ext}`));
  const found = candidates.map((rel) => ({ rel, text: files.read(rel) })).find((c) => c.text !== null);
  if (!found) {
    const looked = candidates.map((c) => files.show(c)).join(', ');
    throw new TaktError(`uses ${uses}: no step fragment named ${uses} (looked for ${looked})`, usesAt);
  }
  if (chain.includes(found.rel)) {
    throw new TaktError(
      `uses ${uses}: fragments call each other in a circle (${[...chain, found.rel].join(' → ')})`,
      usesAt,
    );
  }
  if (chain.length >= MAX_FRAGMENTS)
    throw new TaktError(`uses ${uses}: more than ${MAX_FRAGMENTS} nested fragments`, usesAt);
  const file = YamlFile.parse(found.rel, found.text as string);
  if (!isObj(file.value))
    throw new TaktError('a step fragment must be one step (a mapping)', { rel: found.rel, path: [] });
  const { params, ...body } = file.value;
  const declared = isObj(params) ? Object.keys(params) : [];
  const given = isObj(step.with) ? step.with : {};
  for (const name of Object.keys(given)) {
    if (!declared.includes(name)) {
      throw new TaktError(
        `with.${name}: fragment ${uses} has no parameter ${name} (parameters: ${declared.join(', ') || 'none'})`,
        {
          rel: at.rel,
          path: [...at.path, 'with', name],
        },
      );
    }
  }
  for (const name of declared) {
    if (!(name in given)) throw new TaktError(`with: fragment ${uses} needs its parameter ${name}`, usesAt);
  }
  const bound = bindParams(body, given, { rel: found.rel, path: [] }) as Obj;
  const inner = expandUses(bound, files, workflowRel, { rel: found.rel, path: [] }, [...chain, found.rel]);
  const { uses: _u, with: _w, rules, ...caller } = step;
  const merged = merge(inner.step, caller) as Obj;
  merged.name = caller.name ?? inner.step.name ?? uses;
  if (Array.isArray(rules)) merged.rules = rules;
  else if (isObj(rules)) {
    const nameOf = (part: Json): string | undefined => {
      if (!isObj(part)) return undefined;
      if (typeof part.name === 'string') return part.name;
      return typeof part.uses === 'string' ? fragmentStepName(files, workflowRel, part.uses) : undefined;
    };
    applyRuleTree(merged, rules, { rel: at.rel, path: [...at.path, 'rules'] }, nameOf);
  }
  return { step: merged, fragments: [found.rel, ...inner.fragments] };
}

/**
 * A parallel fragment's caller rules `{ self: [...], parallel: { <part>: [...] } }` spread onto the parts — of a
 * list, or of a `{ fixed, pool }` mapping. A part brought by `uses` without a name of its own is known by its
 * fragment's name (`nameOf`).
 */
function applyRuleTree(step: Obj, tree: Obj, at: At, nameOf: (part: Json) => string | undefined): void {
  step.rules = tree.self;
  const byPart = isObj(tree.parallel) ? tree.parallel : {};
  const used = new Set<string>();
  const spread = (parts: Json[]) =>
    parts.map((part) => {
      const name = nameOf(part);
      if (typeof name !== 'string' || !Array.isArray(byPart[name])) return part;
      used.add(name);
      return { ...(part as Obj), rules: byPart[name] };
    });
  if (Array.isArray(step.parallel)) step.parallel = spread(step.parallel);
  else if (isObj(step.parallel)) {
    const p = { ...step.parallel };
    for (const key of ['fixed', 'pool']) if (Array.isArray(p[key])) p[key] = spread(p[key] as Json[]);
    step.parallel = p;
  }
  for (const name of Object.keys(byPart)) {
    if (!used.has(name)) throw new TaktError(`rules.parallel.${name}: the fragment has no parallel part ${name}`, at);
  }
}

/** The name of a step fragment's step (its `name`, else the fragment's own name), or undefined when unreadable. */
export function fragmentStepName(files: TaktFiles, workflowRel: string, uses: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(uses)) return undefined;
  const top = path.posix.dirname(path.posix.dirname(workflowRel));
  for (const ext of ['yaml', 'yml']) {
    const text = files.read(path.posix.join(top, 'steps', `${uses}.${ext}`));
    if (text === null) continue;
    try {
      const value = YamlFile.parse(`steps/${uses}.${ext}`, text).value;
      return isObj(value) && typeof value.name === 'string' ? value.name : uses;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
