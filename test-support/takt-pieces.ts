// Test support for the TAKT import's tests (src-main/engine/pieces/takt*.test.ts): the fixtures (takt-fixtures/,
// written from TAKT's documented format), a piece and a movement by name, what the model reads of a movement, and a
// temp layout of workflows beside the current fixtures' facets and steps.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { loadPieceFile, PieceCatalog } from '../src-main/engine/pieces/catalog';
import type { MovementDefinition, PieceDefinition } from '../src-main/engine/pieces/schema';
import { tempDir } from './temp-maestro';

export const FIXTURES = path.join(__dirname, '../src-main/engine/pieces/takt-fixtures');
/** The current layout's fixtures, loaded once. */
export const current = new PieceCatalog(path.join(FIXTURES, 'current', 'workflows')).load();

export function piece(id: string, loaded = current): PieceDefinition {
  const found = loaded.pieces.find((p) => p.id === id);
  if (!found) throw new Error(`no piece ${id} (errors: ${JSON.stringify(loaded.errors)})`);
  return found;
}
export const movement = (p: PieceDefinition, name: string) => {
  const found = p.movements.find((m) => m.name === name);
  if (!found) throw new Error(`no movement ${name} in ${p.id}: ${p.movements.map((m) => m.name).join(', ')}`);
  return found;
};
/** What the model reads of a movement: its guidance and its instruction. */
export const seen = (m: MovementDefinition) => `${m.guidance}\n${m.instruction ?? ''}`;

/** Every marker is in `text`, in this order. */
export function expectInOrder(text: string, markers: string[], what = ''): void {
  const at = markers.map((marker) => text.indexOf(marker));
  expect(
    at.every((i) => i >= 0),
    `${what} ${markers.filter((_, i) => (at[i] as number) < 0).join(', ')} missing`,
  ).toBe(true);
  expect(
    [...at].sort((a, b) => a - b),
    what,
  ).toEqual(at);
}

/** The facet names of a fixture's facets folder, by kind. */
export function facetNames(root: string): string[] {
  const dir = path.join(root, 'facets');
  return fs.readdirSync(dir).flatMap((kind) => fs.readdirSync(path.join(dir, kind)).map((f) => f.replace(/\.md$/, '')));
}

/** A layout in a temp folder: `<root>/workflows/<files>` beside a copy of the current fixtures' facets and steps. */
export function layout(workflows: Record<string, string>, extra: Record<string, string> = {}): string {
  const root = tempDir();
  fs.cpSync(path.join(FIXTURES, 'current', 'facets'), path.join(root, 'facets'), { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'current', 'steps'), path.join(root, 'steps'), { recursive: true });
  for (const [name, text] of Object.entries({ ...extra, ...prefixed(workflows) })) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return path.join(root, 'workflows');
}
const prefixed = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([name, text]) => [`workflows/${name}`, text]));
export const errorOf = (dir: string, file = 'w.yaml') => {
  const loaded = loadPieceFile(path.join(dir, file), 'builtin');
  if (loaded.ok) throw new Error(`${file} loaded`);
  return loaded.error;
};
