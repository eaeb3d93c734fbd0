// The house rules as a test: the tree keeps them, and each rule catches a made-up file that breaks it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, readSources, type SourceFile } from './import-boundaries';

const repo = path.resolve(__dirname, '..');

describe('import boundaries', () => {
  it('the tree keeps every rule', () => {
    const sources = readSources(repo, ['src-main', 'src-shared', 'src-renderer/src', 'src-preload']);
    expect(sources.length).toBeGreaterThan(200);
    expect(checkBoundaries(sources)).toEqual([]);
  });

  const broken: [string, SourceFile[], RegExp][] = [
    ['a product file importing vitest', [{ file: 'src-main/db/x.ts', imports: ['vitest'] }], /test runner/],
    [
      'a product file importing test support',
      [{ file: 'src-main/db/x.ts', imports: ['../../test-support/db'] }],
      /imports test support/,
    ],
    ['a product file importing a test', [{ file: 'src-main/db/x.ts', imports: ['./x.test'] }], /imports a test/],
    ['electron outside the edge', [{ file: 'src-main/app/x.ts', imports: ['electron'] }], /may import 'electron'/],
    [
      'the renderer importing main',
      [{ file: 'src-renderer/src/x.ts', imports: ['../../src-main/db/store'] }],
      /only src-shared and itself/,
    ],
    ['the renderer importing Node', [{ file: 'src-renderer/src/x.ts', imports: ['node:fs'] }], /has no Node/],
    ['src-shared importing main', [{ file: 'src-shared/x.ts', imports: ['../src-main/db/store'] }], /only itself/],
    [
      'two src-main folders importing each other',
      [
        { file: 'src-main/tasks/a.ts', imports: ['../engine/b'] },
        { file: 'src-main/engine/b.ts', imports: ['../worker/c'] },
        { file: 'src-main/worker/c.ts', imports: ['../tasks/a'] },
      ],
      /circle: engine → worker → tasks → engine \(via src-main\/engine\/b.ts, src-main\/worker\/c.ts, src-main\/tasks\/a.ts\)/,
    ],
    [
      'two src-renderer folders importing each other (one through its index)',
      [
        { file: 'src-renderer/src/store/a.ts', imports: ['../i18n'] },
        { file: 'src-renderer/src/i18n/index.ts', imports: ['./use-locale'] },
        { file: 'src-renderer/src/i18n/use-locale.ts', imports: ['../store/a'] },
      ],
      /src-renderer folders import each other in a circle: i18n → store → i18n \(via src-renderer\/src\/i18n\/use-locale.ts, src-renderer\/src\/store\/a.ts\)/,
    ],
  ];
  it.each(broken)('catches %s', (_what, sources, message) => {
    const problems = checkBoundaries(sources);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('allows what the rules allow: Electron in shell/ and the preload, tests importing test support', () => {
    expect(
      checkBoundaries([
        { file: 'src-main/shell/window.ts', imports: ['electron'] },
        { file: 'src-main/index.ts', imports: ['electron', './app/create-maestro'] },
        { file: 'src-preload/index.ts', imports: ['electron'] },
        { file: 'src-main/db/x.test.ts', imports: ['vitest', '../../test-support/db'] },
        { file: 'src-main/tasks/a.ts', imports: ['../jobs/b'] },
        { file: 'src-renderer/src/x.tsx', imports: ['react', '../../src-shared/contract'] },
      ]),
    ).toEqual([]);
  });
});

describe('one writer of job and comment state', () => {
  it('only src-main/jobs/ changes a job status, inserts a job or a comment', () => {
    const writers = readSources(repo, ['src-main'])
      .filter((s) => !/\.(test|child)\.ts$/.test(s.file) && !s.file.startsWith('src-main/db/'))
      .filter((s) => /\.(jobs\.(transition|insert)|comments\.insert)\(/.test(read(s.file)))
      .map((s) => s.file);
    expect(writers.every((f) => f.startsWith('src-main/jobs/'))).toBe(true);
    expect(writers).toContain('src-main/jobs/lifecycle.ts');
  });
});

const read = (file: string) => fs.readFileSync(path.join(repo, file), 'utf8');
