// The engine behind its journal, as a test: no product file of engine/ imports anything from db/ (types included) —
// it reaches the store only through the JobJournal port (job-journal.ts, implemented in jobs/journal.ts). The rule
// runs on the tree, and catches made-up files that break it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSources, resolve, type SourceFile } from '../../test-support/import-boundaries';

const repo = path.resolve(__dirname, '..', '..');
const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file) || file.endsWith('.child.ts');

/** Every import of db/ by an engine product file, one line each. */
function engineReachesDb(sources: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const { file, imports } of sources) {
    if (!file.startsWith('src-main/engine/') || isTest(file)) continue;
    for (const specifier of imports) {
      const target = resolve(file, specifier);
      if (target?.startsWith('src-main/db/')) {
        problems.push(`${file}: the engine imports nothing from db/; use the JobJournal port (imports '${specifier}')`);
      }
    }
  }
  return problems;
}

describe('the engine imports nothing from db/', () => {
  it('the tree keeps it', () => {
    const sources = readSources(repo, ['src-main']);
    expect(sources.filter((s) => s.file.startsWith('src-main/engine/')).length).toBeGreaterThan(50);
    expect(engineReachesDb(sources)).toEqual([]);
  });

  it.each([
    ['the store', { file: 'src-main/engine/x.ts', imports: ['../db/store'] }],
    ['a repository’s types', { file: 'src-main/engine/pieces/x.ts', imports: ['../../db/repos/jobs'] }],
    ['ids, with an extension', { file: 'src-main/engine/guards/x.ts', imports: ['../../db/ids.ts'] }],
  ])('catches an engine file importing %s', (_what, source) => {
    const problems = engineReachesDb([source]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${source.file}: the engine imports nothing from db/`));
  });

  it('allows the journal’s implementation, the engine’s tests, and the engine’s own files', () => {
    expect(
      engineReachesDb([
        { file: 'src-main/jobs/journal.ts', imports: ['../db/store', '../engine/job-journal'] },
        { file: 'src-main/engine/x.test.ts', imports: ['../db/store'] },
        { file: 'src-main/engine/x.ts', imports: ['./job-journal', '../tools/types', 'zod'] },
      ]),
    ).toEqual([]);
  });
});
