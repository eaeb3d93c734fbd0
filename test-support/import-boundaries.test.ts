// The house rules as a test: the tree keeps them, and each rule catches a made-up file that breaks it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, readSources, type SourceFile, stateRepoUses } from './import-boundaries';

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

describe('one writer of job, comment and request state (issue 24)', () => {
  const rule: [string, SourceFile, RegExp][] = [
    [
      'a task operation importing the generic job patch',
      { file: 'src-main/tasks/x.ts', imports: ['../jobs/job-writes'] },
      /only src-main\/jobs\/ patches a job/,
    ],
    [
      'an app operation changing a job status',
      { file: 'src-main/app/x.ts', imports: [], repoUses: ['jobs.get', 'jobs.transition'] },
      /writes jobs state \(jobs\.transition\)/,
    ],
    [
      'a worker moving interjections',
      { file: 'src-main/worker/x.ts', imports: [], repoUses: ['comments.moveUndelivered'] },
      /writes comments state/,
    ],
    [
      'the engine inserting a comment',
      { file: 'src-main/engine/agent-loop.ts', imports: [], repoUses: ['comments.insert'] },
      /writes comments state/,
    ],
    [
      'the engine marking an approved call started itself (the journal does it)',
      { file: 'src-main/engine/decisions.ts', imports: [], repoUses: ['toolRequests.markStarted'] },
      /writes toolRequests state/,
    ],
    [
      'a bridge handler taking the request repository whole',
      { file: 'src-main/bridge/x.ts', imports: [], repoUses: ['packageRequests.*'] },
      /takes store\.packageRequests whole/,
    ],
  ];
  it.each(rule)('catches %s', (_what, source, message) => {
    const problems = checkBoundaries([source]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('allows jobs/ and db/ to write, reads anywhere, and tests to set up state', () => {
    const writes = ['jobs.transition', 'comments.insert', 'toolRequests.decide'];
    expect(
      checkBoundaries([
        { file: 'src-main/jobs/x.ts', imports: ['./job-writes'], repoUses: writes },
        { file: 'src-main/db/x.ts', imports: [], repoUses: writes },
        {
          file: 'src-main/tasks/x.ts',
          imports: ['../jobs/follow-up'],
          repoUses: ['jobs.latestForTask', 'comments.listForTask'],
        },
        { file: 'src-main/tasks/x.test.ts', imports: ['../jobs/job-writes'], repoUses: writes },
      ]),
    ).toEqual([]);
  });

  it('finds every spelling of a use on the syntax tree, and none in comments or strings', () => {
    const text = `
      store.jobs.transition(id, 'running', 'failed');
      ctx.store.comments['insert'](c);
      const { moveUndelivered, listForJob: list } = this.o.store.comments;
      const repo = store.toolRequests;
      const { packageRequests } = store;
      // store.jobs.insert(job) in a comment
      const sql = 'store.jobs.claimNext()';
      result.toolRequests.length;
    `;
    expect(stateRepoUses(text).sort()).toEqual(
      [
        'jobs.transition',
        'comments.insert',
        'comments.moveUndelivered',
        'comments.listForJob',
        'toolRequests.*',
        'packageRequests.*',
        'toolRequests.length',
      ].sort(),
    );
  });
});
