// The tools benchmark's tree (bench/tools.ts): deterministic, realistic text files in nested folders, plus what a
// checkout holds but git ignores (node_modules, dist/, *.log).
import fs from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../test-support/prng';

export const NODE_MODULES_FILES = 3_000;
export const DIST_FILES = 800;
export const LOG_FILES = 40;

const rand = mulberry32(20_000);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
function weighted<T>(table: readonly (readonly [T, number])[]): T {
  let r = rand() * table.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of table) {
    r -= w;
    if (r <= 0) return v;
  }
  return (table[table.length - 1] as readonly [T, number])[0];
}
/** Roughly log-normal: median `med`, long tail (a few big files), capped. */
function logNormal(med: number, sigma: number, max: number): number {
  const u = 1 - rand();
  const v = rand();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(1, Math.min(max, Math.round(med * Math.exp(sigma * z))));
}

// ---- the tree --------------------------------------------------------------------------------------------------

const WORDS = [
  'user',
  'account',
  'session',
  'order',
  'invoice',
  'payment',
  'cart',
  'product',
  'search',
  'report',
  'chart',
  'table',
  'form',
  'modal',
  'layout',
  'theme',
  'router',
  'store',
  'cache',
  'queue',
  'worker',
  'event',
  'logger',
  'config',
  'auth',
  'token',
  'profile',
  'settings',
  'billing',
  'export',
  'import',
  'upload',
  'media',
  'image',
  'editor',
  'panel',
  'sidebar',
  'header',
  'footer',
  'menu',
  'button',
  'input',
  'list',
  'item',
  'detail',
  'filter',
] as const;
const FOLDER_WORDS = [
  'components',
  'hooks',
  'utils',
  'lib',
  'services',
  'models',
  'views',
  'api',
  'features',
  'common',
  'shared',
  'internal',
  'core',
  'helpers',
  'state',
  'styles',
  'pages',
  'widgets',
  'adapters',
  'handlers',
] as const;
const cap = (w: string) => w[0]?.toUpperCase() + w.slice(1);

const TS_LINES: readonly ((w: string, W: string) => string)[] = [
  (w) => `import { ${w}Service } from '../services/${w}';`,
  (_w, W) => `import React, { useState, useEffect } from 'react';  // ${W}`,
  () => `import fs from 'node:fs';`,
  (w) => `export function ${w}Handler(req: Request, res: Response): void {`,
  (w, W) => `export async function ${w}${W}Handler(event: ${W}Event): Promise<void> {`,
  (w) => `  const ${w}Count = items.filter((x) => x.${w} !== undefined).length;`,
  (w, W) => `  if (!${w}) throw new Error('${W} not found: ' + String(id));`,
  (w) => `  return ${w}.map((entry) => ({ ...entry, updatedAt: Date.now() }));`,
  (w, W) => `export interface ${W}Props { id: string; ${w}: ${W} | null; onChange?: (v: ${W}) => void }`,
  (w) => `  // TODO: handle the ${w} edge case once the backend returns it`,
  (w) => `  logger.debug('${w} loaded', { size: ${w}.length, elapsed: performance.now() - started });`,
  (w, W) => `  const [${w}, set${W}] = useState<${W} | undefined>(undefined);`,
  () => `  }`,
  () => `}`,
  () => ``,
  (w) => `  for (const key of Object.keys(${w})) result[key] = normalize(${w}[key]);`,
  (w, W) => `/** Returns the ${w} for the given id, or undefined when the ${W} was deleted. */`,
  (w) => `  await db.transaction(async (tx) => tx.update(${w}Table).set(values).where(eq(${w}Table.id, id)));`,
  (w) => `  deprecatedApiCall(${w}); // FIXME remove before 2.0`,
];
const TS_WEIGHTS = [6, 3, 1, 1, 1, 8, 4, 5, 2, 0.7, 4, 2, 10, 5, 8, 3, 3, 2, 0.02];
const MD_LINES: readonly ((w: string, W: string) => string)[] = [
  (_w, W) => `## ${W}`,
  (w) => `The ${w} module keeps its state in memory and writes it back on every change to the ${w} store.`,
  (w) => `- \`${w}Handler\` answers the request; see the ${w} service for the details of retries.`,
  () => ``,
  (w) => `TODO: document how ${w} interacts with caching and invalidation.`,
  (w) => `    npm run build:${w} -- --watch`,
];
const MD_WEIGHTS = [2, 8, 4, 6, 0.5, 1];

function textOf(lines: readonly ((w: string, W: string) => string)[], weights: number[], count: number): string {
  const table = lines.map((l, i) => [l, weights[i] as number] as const);
  let out = '';
  for (let i = 0; i < count; i++) {
    const w = pick(WORDS);
    out += `${weighted(table)(w, cap(w))}\n`;
  }
  return out;
}

function contentFor(ext: string): string {
  switch (ext) {
    case 'md':
    case 'txt':
      return textOf(MD_LINES, MD_WEIGHTS, logNormal(40, 0.8, 1500));
    case 'json':
      return `${JSON.stringify(
        Object.fromEntries(Array.from({ length: logNormal(12, 0.8, 400) }, (_, i) => [`${pick(WORDS)}_${i}`, rand()])),
        null,
        2,
      )}\n`;
    case 'css':
      return Array.from(
        { length: logNormal(20, 0.7, 500) },
        () =>
          `.${pick(WORDS)}-${pick(WORDS)} { margin: ${Math.floor(rand() * 24)}px; color: #${Math.floor(rand() * 0xffffff).toString(16)}; }\n`,
      ).join('');
    case 'yml':
      return Array.from({ length: logNormal(15, 0.6, 200) }, () => `${pick(WORDS)}: ${pick(WORDS)}\n`).join('');
    default: // ts, tsx, js, test.ts, d.ts
      return textOf(TS_LINES, TS_WEIGHTS, logNormal(70, 0.8, 3000));
  }
}

const EXTENSIONS = [
  ['ts', 38],
  ['tsx', 12],
  ['js', 8],
  ['test.ts', 9],
  ['d.ts', 2],
  ['json', 6],
  ['md', 9],
  ['css', 6],
  ['txt', 3],
  ['yml', 2],
] as const;

export interface TreeStats {
  files: number;
  bytes: number;
  folders: number;
}

/** Writes the tree below `root`; returns what it wrote (tracked files only). */
export function buildTree(root: string, files: number): TreeStats {
  // Folders: a few roots, each with a random subtree up to 4 levels deep.
  const roots = ['src', 'docs', 'scripts', 'test'];
  for (let p = 0; p < 40; p++) {
    const pkg = `packages/${pick(WORDS)}-${String(p).padStart(2, '0')}`;
    roots.push(`${pkg}/src`, `${pkg}/test`);
  }
  const folders: string[] = [];
  const grow = (dir: string, depth: number) => {
    folders.push(dir);
    if (depth >= 4) return;
    const n = depth <= 0 ? 3 + Math.floor(rand() * 5) : Math.floor(rand() * 4);
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      const name = rand() < 0.5 ? pick(FOLDER_WORDS) : pick(WORDS);
      if (used.has(name)) continue;
      used.add(name);
      grow(`${dir}/${name}`, depth + 1);
    }
  };
  for (const r of roots) grow(r, r === 'src' ? -1 : 0);
  for (const d of folders) fs.mkdirSync(path.join(root, d), { recursive: true });

  const names = new Set<string>();
  let bytes = 0;
  const write = (rel: string, content: string) => {
    fs.writeFileSync(path.join(root, rel), content);
    bytes += content.length;
  };
  // An index file in about half of the folders, then the rest spread at random.
  for (const d of folders) {
    if (names.size >= files || rand() < 0.5) continue;
    const rel = `${d}/index.${rand() < 0.7 ? 'ts' : 'tsx'}`;
    names.add(rel);
    write(rel, contentFor('ts'));
  }
  while (names.size < files) {
    const dir = pick(folders);
    const ext = dir.startsWith('docs') ? (rand() < 0.8 ? 'md' : 'txt') : weighted(EXTENSIONS);
    const rel = `${dir}/${pick(WORDS)}-${pick(WORDS)}${rand() < 0.3 ? `-${Math.floor(rand() * 100)}` : ''}.${ext}`;
    if (names.has(rel)) continue;
    names.add(rel);
    write(rel, contentFor(ext));
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\ncoverage/\n');

  // Ignored by git, seen by the tools (they do not read .gitignore).
  for (let i = 0; i < DIST_FILES; i++) {
    const rel = `dist/${pick(FOLDER_WORDS)}/${pick(WORDS)}-${i}.${i % 4 === 0 ? 'd.ts' : 'js'}`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), contentFor('js'));
  }
  for (let i = 0; i < LOG_FILES; i++) {
    fs.writeFileSync(path.join(root, `${pick(folders)}/debug-${i}.log`), textOf(MD_LINES, MD_WEIGHTS, 200));
  }
  // Skipped by both (unless named).
  for (let i = 0; i < NODE_MODULES_FILES; i++) {
    const rel = `node_modules/${pick(WORDS)}-lib/${pick(['dist', 'lib', 'src'])}/${pick(WORDS)}-${i}.${pick(['js', 'ts', 'd.ts', 'json'])}`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), contentFor('js'));
  }
  return { files: names.size, bytes, folders: folders.length };
}
