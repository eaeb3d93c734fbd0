// Resolves a TAKT facet reference to its text the way TAKT's loader does: the workflow's section map (`personas:`,
// `policies:`, `knowledge:`, `instructions:`, `report_formats:` — a value is a file path when it looks like one, else
// inline text), a file path beside the workflow, or a bare name looked up in the facet folders (`../facets/<kind>/` of
// the current layout, `../<kind>/` of February 2026's), with `{extends: <parent>}` lines expanded. A bare name that
// resolves to nothing is an error, so no facet name ever reaches the model as a word.
import path from 'node:path';
import { TaktError, type TaktFiles } from './takt-files';

export type FacetKind = 'personas' | 'policies' | 'knowledge' | 'instructions' | 'output-contracts';

const LABEL: Record<FacetKind, string> = {
  personas: 'persona',
  policies: 'policy',
  knowledge: 'knowledge',
  instructions: 'instruction',
  'output-contracts': 'report format',
};

/** The workflow's section map for each kind. */
export type SectionMaps = Partial<Record<FacetKind, Record<string, string>>>;

/** TAKT's test for a path: './', '../', '/', '~' at the start, or '.md' at the end. */
const isResourcePath = (spec: string) => /^(\.\.?\/|\/|~)/.test(spec) || spec.endsWith('.md');
/** A facet name (`coder`, `review-arch`): looked up, never sent as text. */
const FACET_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9_-])?$/;
const EXTENDS_LINE = /^[ \t]*\{extends:\s*([^}\n]+?)\s*\}[ \t]*$/m;

export class Facets {
  private readonly dir: string;

  /** `workflowRel`: the workflow file under the files' root; its folder is where relative paths start. */
  constructor(
    private readonly files: TaktFiles,
    workflowRel: string,
    private readonly maps: SectionMaps,
  ) {
    this.dir = path.posix.dirname(workflowRel);
  }

  /** The text `ref` stands for; a TaktError (without a location: the caller knows the field) when there is none. */
  text(kind: FacetKind, ref: string): string {
    const mapped = this.maps[kind]?.[ref];
    if (mapped !== undefined) {
      return isResourcePath(mapped) ? this.file(kind, mapped, `${ref} → ${mapped}`) : mapped.trim();
    }
    if (ref.startsWith('@'))
      throw new TaktError(`${LABEL[kind]} ${ref}: repertoire package references are not supported`);
    if (isResourcePath(ref)) return this.file(kind, ref, ref);
    if (!FACET_NAME.test(ref)) return ref.trim(); // Inline text.
    return this.named(kind, ref, [], null);
  }

  /** Every text of a reference or a list of them, in order. */
  texts(kind: FacetKind, refs: string | string[] | undefined): string[] {
    return (refs === undefined ? [] : Array.isArray(refs) ? refs : [refs]).map((r) => this.text(kind, r));
  }

  /** A workflow-wide rule (`all_steps.rules`): `rules/<ref>.md` beside the workflow file. */
  rule(ref: string): string {
    if (!FACET_NAME.test(ref)) throw new TaktError(`rule ${ref}: a rule is named by a bare name (no paths)`);
    const rel = path.posix.join(this.dir, 'rules', `${ref}.md`);
    const text = this.files.read(rel);
    if (text === null) throw new TaktError(`no rule named ${ref} (looked for ${this.files.show(rel)})`);
    return text.trim();
  }

  private candidates(kind: FacetKind, name: string): string[] {
    const top = path.posix.dirname(this.dir);
    return [path.posix.join(top, 'facets', kind, `${name}.md`), path.posix.join(top, kind, `${name}.md`)];
  }

  private named(kind: FacetKind, name: string, chain: string[], skip: string | null): string {
    const candidates = this.candidates(kind, name).filter((rel) => rel !== skip);
    for (const rel of candidates) {
      const text = this.files.read(rel);
      if (text !== null) return this.expand(kind, rel, text, chain);
    }
    throw new TaktError(
      `no ${LABEL[kind]} facet named ${name} (looked for ${candidates.map((c) => this.files.show(c)).join(', ')})`,
    );
  }

  private file(kind: FacetKind, spec: string, label: string): string {
    if (spec.startsWith('/') || spec.startsWith('~')) {
      throw new TaktError(`${LABEL[kind]} ${label}: only files beside the piece are read, not absolute paths`);
    }
    const rel = path.posix.normalize(path.posix.join(this.dir, spec));
    const text = rel.startsWith('../') ? null : this.files.read(rel);
    if (text === null) throw new TaktError(`${LABEL[kind]} ${label}: ${this.files.show(rel)} not found`);
    return this.expand(kind, rel, text, []);
  }

  /** A facet file's text with its `{extends: parent}` line replaced by the parent facet's text. */
  private expand(kind: FacetKind, rel: string, text: string, chain: string[]): string {
    const match = EXTENDS_LINE.exec(text);
    if (!match) return text.trim();
    if (chain.includes(rel)) throw new TaktError(`facet inheritance cycle: ${[...chain, rel].join(' → ')}`);
    const parent = this.named(kind, (match[1] as string).trim(), [...chain, rel], rel);
    return `${text.slice(0, match.index)}${parent}${text.slice(match.index + match[0].length)}`.trim();
  }
}
