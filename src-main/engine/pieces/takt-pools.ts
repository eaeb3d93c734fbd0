// TAKT's facet pools and companion reviewers, read the way TAKT's loader reads them.
//
// A facet pool (`facet_pools: { <name>: { candidates } | { uses: <facet-pools/name> } }`) lists candidates — an id, a
// description, policies and knowledge — that a step naming it (`dynamic_facets: { pool }`) may add to its fixed
// facets. TAKT runs a read-only selector before the step: it returns the ids that apply to the change and a
// rationale, and only their facets are added. MAESTRO does the same with the `select_facets` tool: the step's own
// model picks from the pool at the start of the step, the call (ids and rationale) is recorded like any tool call,
// and the chosen facets come back as its result. Not "all apply": a pool's facets are large (TAKT's coding pool is
// about 67 KB of knowledge) and one conversation keeps every entry of a step, so adding all of them at every entry
// would cost far more than the pick, and TAKT's pools are written on the promise that only what applies is added.
//
// A companion (`companion: [names]` or `{ fixed, pool, moderator }`, `companions/<name>.yaml`) is a read-only
// reviewer of the step's change whose findings the implementer weighs; it never chooses the route. TAKT runs them in
// separate sessions at the step's response boundary (its default review_mode, `completion`); here the same model
// reviews its change as each of them before it ends the step (companionText).
import path from 'node:path';
import { Facets } from './takt-facets';
import { TaktError, type TaktFiles, YamlFile } from './takt-files';
import type { TaktWorkflow } from './takt-schema';

export interface PoolCandidate {
  id: string;
  description: string;
  /** The texts of the candidate's policies and of its knowledge, in the order it names them. */
  policies: string[];
  knowledge: string[];
}

export interface ResolvedPool {
  name: string;
  candidates: PoolCandidate[];
}

type At = { rel: string; path: (string | number)[] };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `<top>/<folder>/<name>.yaml|yml` beside the workflow folder, or an error naming where it looked. */
function sibling(files: TaktFiles, workflowRel: string, folder: string, name: string, what: string, at: At) {
  if (name.startsWith('@')) throw new TaktError(`${what} ${name}: repertoire package references are not supported`, at);
  if (!NAME.test(name)) throw new TaktError(`${what} ${name}: named by a bare name (no paths)`, at);
  const top = path.posix.dirname(path.posix.dirname(workflowRel));
  const candidates = ['yaml', 'yml'].map((ext) => path.posix.join(top, folder, `${name}.${ext}`));
  for (const rel of candidates) {
    const text = files.read(rel);
    if (text !== null) return YamlFile.parse(rel, text);
  }
  throw new TaktError(`no ${what} named ${name} (looked for ${candidates.map((c) => files.show(c)).join(', ')})`, at);
}

const refs = (value: unknown, field: string, at: At): string[] => {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === 'string' && v !== ''))
    throw new TaktError(`${field} must be a facet name or a non-empty list of them`, at);
  return list as string[];
};

/**
 * The pool `name` of the workflow at `workflowRel`, its candidates' facets read (an external pool only through its
 * own section maps and the facet folders, never the caller's maps). Every fail-fast check of TAKT's loader is here.
 */
export function resolvePool(
  files: TaktFiles,
  workflowRel: string,
  workflow: TaktWorkflow,
  workflowFacets: Facets,
  name: string,
  at: At,
): ResolvedPool {
  const pools = workflow.facet_pools ?? {};
  const entry = pools[name];
  if (!entry) {
    const known = Object.keys(pools);
    throw new TaktError(
      `no facet pool named ${name} in this workflow (facet_pools: ${known.join(', ') || 'none'})`,
      at,
    );
  }
  const poolAt = { rel: workflowRel, path: ['facet_pools', name] };
  let facets = workflowFacets;
  let body: Record<string, unknown> = entry;
  let bodyAt = poolAt;
  if (entry.uses !== undefined) {
    const inline = ['policies', 'knowledge', 'candidates'].filter((k) => entry[k] !== undefined);
    if (inline.length > 0) throw new TaktError(`uses cannot be combined with ${inline.join(', ')}`, poolAt);
    const file = sibling(files, workflowRel, 'facet-pools', entry.uses, 'facet pool', {
      ...poolAt,
      path: [...poolAt.path, 'uses'],
    });
    if (!isObj(file.value)) throw new TaktError('a facet pool file is one mapping', { rel: file.rel, path: [] });
    body = file.value;
    bodyAt = { rel: file.rel, path: [] };
    for (const key of ['uses', 'params']) {
      if (body[key] !== undefined)
        throw new TaktError(`an external facet pool cannot have ${key}`, { ...bodyAt, path: [key] });
    }
    if (JSON.stringify(body).includes('"$param"'))
      throw new TaktError('an external facet pool cannot use $param', bodyAt);
    const maps = (k: string) => (isObj(body[k]) ? (body[k] as Record<string, string>) : undefined);
    // Self-contained: the pool file's own maps, relative to its own folder.
    facets = new Facets(files, file.rel, { policies: maps('policies'), knowledge: maps('knowledge') });
  }
  const list = body.candidates;
  if (!Array.isArray(list) || list.length === 0)
    throw new TaktError('a facet pool must list its candidates', { ...bodyAt, path: [...bodyAt.path, 'candidates'] });
  const seen = new Set<string>();
  const candidates = list.map((raw, i): PoolCandidate => {
    const cAt = { ...bodyAt, path: [...bodyAt.path, 'candidates', i] };
    if (!isObj(raw)) throw new TaktError('a candidate is a mapping (id, description, policy, knowledge)', cAt);
    const extra = Object.keys(raw).find((k) => !['id', 'description', 'policy', 'knowledge'].includes(k));
    if (extra) throw new TaktError(`${extra} is not a field of a candidate`, { ...cAt, path: [...cAt.path, extra] });
    const { id, description } = raw;
    if (typeof id !== 'string' || id.trim() === '')
      throw new TaktError('a candidate needs an id', { ...cAt, path: [...cAt.path, 'id'] });
    if (seen.has(id)) throw new TaktError(`candidate ${id} appears twice`, { ...cAt, path: [...cAt.path, 'id'] });
    seen.add(id);
    if (typeof description !== 'string' || description.trim() === '')
      throw new TaktError(`candidate ${id} needs a description`, cAt);
    const policy = refs(raw.policy, 'policy', { ...cAt, path: [...cAt.path, 'policy'] });
    const knowledge = refs(raw.knowledge, 'knowledge', { ...cAt, path: [...cAt.path, 'knowledge'] });
    if (policy.length + knowledge.length === 0) throw new TaktError(`candidate ${id} needs a policy or knowledge`, cAt);
    const read = (kind: 'policies' | 'knowledge', names: string[], field: string) => {
      try {
        return facets.texts(kind, names);
      } catch (error) {
        if (error instanceof TaktError && !error.at)
          throw new TaktError(error.message, { ...cAt, path: [...cAt.path, field] });
        throw error;
      }
    };
    return {
      id,
      description: description.trim(),
      policies: read('policies', policy, 'policy'),
      knowledge: read('knowledge', knowledge, 'knowledge'),
    };
  });
  return { name, candidates };
}

export interface Companion {
  name: string;
  description: string;
  /** What the reviewer looks for (its instruction facet). */
  instruction: string;
}

export interface Companions {
  reviewers: Companion[];
  moderator: Companion | null;
}

/** TAKT: "At most three reviewers run together". */
export const MAX_COMPANIONS = 3;

/** A step's `companion` field read: its reviewers (fixed, then pool: all of them, at most three) and moderator. */
export function resolveCompanions(files: TaktFiles, workflowRel: string, value: unknown, at: At): Companions | null {
  if (value === undefined) return null;
  // `companion: { $param: … }` bound to an empty list: no companions (TAKT omits the field).
  if (Array.isArray(value) && value.length === 0) return null;
  const spec: { fixed?: string[]; pool?: string[]; moderator?: string } = Array.isArray(value)
    ? { fixed: value as string[] }
    : (value as { fixed?: string[]; pool?: string[]; moderator?: string });
  const names = [...(spec.fixed ?? []), ...(spec.pool ?? [])];
  if (names.length === 0) throw new TaktError('a companion selection names at least one reviewer', at);
  if (new Set(names).size !== names.length) throw new TaktError('a companion is named twice', at);
  if (names.length > MAX_COMPANIONS)
    throw new TaktError(`at most ${MAX_COMPANIONS} companion reviewers run together (${names.join(', ')})`, at);
  const one = (name: string): Companion => {
    const file = sibling(files, workflowRel, 'companions', name, 'companion', at);
    const v = file.value;
    if (!isObj(v)) throw new TaktError('a companion file is one mapping', { rel: file.rel, path: [] });
    const allowed = ['name', 'description', 'persona', 'policy', 'knowledge', 'instruction', 'interval_ms'];
    const extra = Object.keys(v).find((k) => !allowed.includes(k));
    if (extra)
      throw new TaktError(`${extra} is not a field of a companion (provider and tool settings are not allowed)`, {
        rel: file.rel,
        path: [extra],
      });
    if (typeof v.instruction !== 'string' || v.instruction === '')
      throw new TaktError('a companion needs an instruction', { rel: file.rel, path: ['instruction'] });
    const facets = new Facets(files, file.rel, {});
    let instruction: string;
    try {
      // Persona, policies and knowledge are checked to exist, as TAKT's loader does.
      facets.texts('personas', typeof v.persona === 'string' ? v.persona : undefined);
      facets.texts('policies', v.policy as string | string[] | undefined);
      facets.texts('knowledge', v.knowledge as string | string[] | undefined);
      instruction = facets.text('instructions', v.instruction);
    } catch (error) {
      if (error instanceof TaktError && !error.at) throw new TaktError(error.message, { rel: file.rel, path: [] });
      throw error;
    }
    return { name, description: typeof v.description === 'string' ? v.description.trim() : '', instruction };
  };
  return { reviewers: names.map(one), moderator: spec.moderator ? one(spec.moderator) : null };
}

/** The instruction section that has the step's model review its own change as each companion, advisory only. */
export function companionText(c: Companions): string {
  const reviewers = c.reviewers.map(
    (r) => `### Reviewer ${r.name}${r.description ? ` — ${r.description}` : ''}\n${r.instruction}`,
  );
  const moderator = c.moderator
    ? `### Moderator ${c.moderator.name}${c.moderator.description ? ` — ${c.moderator.description}` : ''}\n${c.moderator.instruction}`
    : '';
  const steps = [
    'Before you end this step, review what this step changed (its diff) as each reviewer below, one after another, reading only — no edits while reviewing.',
    c.moderator ? 'Then, as the moderator below, accept or reject each finding from the repository evidence.' : '',
    'Then address each finding you keep, or say why you do not act on it. These reviews are advice: they never decide where the workflow goes.',
  ].filter(Boolean);
  return ['## Companion review', steps.join(' '), ...reviewers, moderator].filter(Boolean).join('\n\n');
}
