// The house rules on imports (architecture.md "Rules of the house", style.md "Process boundaries"), as a checker
// over a set of source files, so a test can run it on the tree and on made-up trees that break each rule.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { STATE_REPOS } from '../src-main/db/repos/write-surface';

export interface SourceFile {
  /** Repository-relative, with forward slashes. */
  file: string;
  /** Every module specifier it imports or re-exports, static, dynamic or `require`d, type-only included. */
  imports: string[];
  /** Its uses of the Store's state repositories, as `repo.method` (see stateRepoUses below). */
  repoUses?: string[];
}

const PRODUCT_ROOTS = ['src-main/', 'src-shared/', 'src-renderer/', 'src-preload/'];
const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.endsWith('.child.ts');
const isProduct = (file: string) => PRODUCT_ROOTS.some((r) => file.startsWith(r)) && !isTest(file);

/** The repository's TypeScript sources below `roots`, read with TypeScript's own import scanner. */
export function readSources(repo: string, roots: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(path.join(repo, rel), 'utf8');
        const scanned = ts.preProcessFile(text, true, true);
        files.push({ file: rel, imports: scanned.importedFiles.map((f) => f.fileName), repoUses: stateRepoUses(text) });
      }
    }
  };
  for (const root of roots) walk(root);
  return files;
}

/** The repository-relative module a relative specifier names (no extension), or null for a package. */
export function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.(ts|tsx|js)$/, '');
}

const folderOf = (module: string): string | null => {
  const parts = module.split('/');
  return parts[0] === 'src-main' && parts.length > 2 ? (parts[1] as string) : null;
};

/** Every break of the rules, one line each: `file: what is wrong`. */
export function checkBoundaries(sources: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Map<string, string>>(); // folder → folder → the first file that imports it
  for (const { file, imports } of sources) {
    for (const specifier of imports) {
      const target = resolve(file, specifier);
      const say = (why: string) => problems.push(`${file}: ${why} (imports '${specifier}')`);
      if (isProduct(file)) {
        if (specifier === 'vitest' || specifier.startsWith('@playwright/')) say('product code imports a test runner');
        if (target?.startsWith('test-support/') || target?.startsWith('e2e/')) say('product code imports test support');
        if (target && isTest(`${target}.ts`)) say('product code imports a test');
      }
      if (specifier === 'electron' || specifier.startsWith('electron/')) {
        const edge =
          file === 'src-main/index.ts' || file.startsWith('src-main/shell/') || file.startsWith('src-preload/');
        if (!edge && isProduct(file))
          say("only src-main/index.ts, src-main/shell/ and the preload may import 'electron'");
      }
      if (file.startsWith('src-renderer/')) {
        if (target && !target.startsWith('src-renderer/') && !target.startsWith('src-shared/')) {
          say('the renderer imports only src-shared and itself');
        }
        if (!target && isNodeBuiltin(specifier)) say('the renderer has no Node');
      }
      if (file.startsWith('src-shared/') && isProduct(file)) {
        if (target && !target.startsWith('src-shared/')) say('src-shared imports only itself');
        if (!target && isNodeBuiltin(specifier)) say('src-shared runs in the renderer too: no Node modules');
      }
      const from = folderOf(file);
      const to = target ? folderOf(target) : null;
      if (isProduct(file) && from && to && from !== to) {
        const out = edges.get(from) ?? new Map<string, string>();
        if (!out.has(to)) out.set(to, file);
        edges.set(from, out);
      }
    }
  }
  problems.push(...checkStateWriters(sources));
  for (const cycle of folderCycles(edges)) {
    const via = cycle.slice(0, -1).map((f, i) => edges.get(f)?.get(cycle[i + 1] as string));
    problems.push(`src-main folders import each other in a circle: ${cycle.join(' → ')} (via ${via.join(', ')})`);
  }
  problems.push(...rendererFolderCircles(sources));
  return problems;
}

/**
 * The renderer's folders (src-renderer/src/<folder>/) in a circle, from product files, as for src-main. An import of a
 * folder's index ('../i18n') counts as one of that folder; files at src-renderer/src/ itself are in no folder.
 */
export function rendererFolderCircles(sources: readonly SourceFile[]): string[] {
  const inRenderer = (module: string) => {
    const parts = module.split('/');
    return parts[0] === 'src-renderer' && parts[1] === 'src' ? parts.slice(2) : [];
  };
  const folders = new Set(sources.flatMap(({ file }) => (inRenderer(file).length > 1 ? [inRenderer(file)[0]] : [])));
  const folderOf = (module: string) => {
    const [first, ...rest] = inRenderer(module);
    return first && (rest.length > 0 || folders.has(first)) ? first : null;
  };
  const edges = new Map<string, Map<string, string>>();
  for (const { file, imports } of sources) {
    const from = isProduct(file) ? folderOf(file) : null;
    for (const specifier of imports) {
      const target = resolve(file, specifier);
      const to = target ? folderOf(target) : null;
      if (!from || !to || from === to) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, file);
      edges.set(from, out);
    }
  }
  return folderCycles(edges).map((cycle) => {
    const via = cycle.slice(0, -1).map((f, i) => edges.get(f)?.get(cycle[i + 1] as string));
    return `src-renderer folders import each other in a circle: ${cycle.join(' → ')} (via ${via.join(', ')})`;
  });
}

const isNodeBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'crypto'].includes(specifier);

/** Each elementary circle of the folder graph once, as [a, b, …, a], found from its smallest folder name. */
function folderCycles(edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const cycles: string[][] = [];
  const folders = [...edges.keys()].sort();
  for (const start of folders) {
    const visit = (at: string, trail: string[]) => {
      for (const next of [...(edges.get(at)?.keys() ?? [])].sort()) {
        if (next === start) cycles.push([...trail, start]);
        else if (next > start && !trail.includes(next)) visit(next, [...trail, next]);
      }
    };
    visit(start, [start]);
  }
  return cycles;
}

// One writer of job, comment and request state (issue 24): outside src-main/jobs/ and src-main/db/, product code
// neither imports jobs/job-writes.ts (the generic job patch) nor calls a write of the Store's state repositories
// (the table of db/repos/write-surface.ts says which methods write), nor takes such a repository whole as a value,
// where its writes could no longer be seen. Callers say what happened through the commands of jobs/.

/** The job patch and the write primitives the commands are made of. */
const JOB_WRITES_MODULE = 'src-main/jobs/job-writes';

const mayWriteState = (file: string) => file.startsWith('src-main/jobs/') || file.startsWith('src-main/db/');

export function checkStateWriters(sources: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const { file, imports, repoUses = [] } of sources) {
    if (!isProduct(file) || !file.startsWith('src-main/') || mayWriteState(file)) continue;
    for (const specifier of imports) {
      if (resolve(file, specifier) === JOB_WRITES_MODULE)
        problems.push(
          `${file}: only src-main/jobs/ patches a job; say what happened through a job command (imports '${specifier}')`,
        );
    }
    for (const use of new Set(repoUses)) {
      const [repo, method] = use.split('.') as [keyof typeof STATE_REPOS, string];
      const surface: Readonly<Record<string, 'read' | 'write'>> = STATE_REPOS[repo];
      if (method === '*')
        problems.push(
          `${file}: takes store.${repo} whole, where its writes cannot be checked; call its reads or a job command`,
        );
      else if (surface[method] === 'write')
        problems.push(
          `${file}: writes ${repo} state (${use}) outside src-main/jobs/ and src-main/db/; use a job command`,
        );
    }
  }
  return problems;
}

const STATE_REPO_NAMES = new Set(Object.keys(STATE_REPOS));

/** `store` or `….store`: how product code names the Store. */
const isStore = (node: ts.Node): boolean =>
  (ts.isIdentifier(node) && node.text === 'store') ||
  (ts.isPropertyAccessExpression(node) && node.name.text === 'store');

/**
 * Every use of a state repository in `text`: `x.jobs.insert(…)`, `x.jobs['insert']` and `const { insert } = x.jobs`
 * as `jobs.insert`; the Store's repository taken as a value (`const repo = store.jobs`, `f(ctx.store.jobs)`,
 * `const { jobs } = store`) as `jobs.*`. Found on the syntax tree, so comments and strings do not count.
 */
export function stateRepoUses(text: string): string[] {
  const uses: string[] = [];
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && STATE_REPO_NAMES.has(node.name.text)) {
      const repo = node.name.text;
      const parent = node.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) uses.push(`${repo}.${parent.name.text}`);
      else if (ts.isElementAccessExpression(parent) && parent.expression === node)
        uses.push(
          `${repo}.${ts.isStringLiteralLike(parent.argumentExpression) ? parent.argumentExpression.text : '*'}`,
        );
      else if (
        ts.isVariableDeclaration(parent) &&
        parent.initializer === node &&
        ts.isObjectBindingPattern(parent.name)
      )
        for (const element of parent.name.elements) {
          const name = element.propertyName ?? element.name;
          uses.push(`${repo}.${ts.isIdentifier(name) ? name.text : '*'}`);
        }
      else if (isStore(node.expression)) uses.push(`${repo}.*`);
    }
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isStore(node.initializer) &&
      ts.isObjectBindingPattern(node.name)
    )
      for (const element of node.name.elements) {
        const name = element.propertyName ?? element.name;
        if (ts.isIdentifier(name) && STATE_REPO_NAMES.has(name.text)) uses.push(`${name.text}.*`);
      }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}
