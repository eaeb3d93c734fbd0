import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIB } from '../../src-shared/contract';
import { rowCounts } from '../../test-support/db';
import { expectMaestroError, setup } from '../../test-support/tasks';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** Nothing of a refused create exists: no rows, no runtime dir, no ephemeral workspace. */
function expectNothingCreated(store: ReturnType<typeof setup>['store'], dataDir: string) {
  expect(rowCounts(store)).toEqual({
    tasks: 0,
    jobs: 0,
    comments: 0,
    tool_requests: 0,
    package_requests: 0,
    events: 0,
  });
  for (const sub of ['runs', 'workspaces']) {
    const dir = path.join(dataDir, sub);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  }
}

describe('createTask', () => {
  it('P1.01 a valid instruction → task, user instruction comment and queued job in one go; Task.status queued', () => {
    const { m, store, create } = setup();
    const events: string[] = [];
    store.subscribe((e) => events.push(e.type));
    const { task, job } = create({ instruction: 'First line\nsecond line' });
    expect(task).toMatchObject({ title: 'First line', instruction: 'First line\nsecond line', pieceId: 'default' });
    expect(task.status).toBe('queued');
    expect(job).toMatchObject({ taskId: task.id, status: 'queued', pieceId: 'default', attempt: 0, askCount: 0 });
    expect(job).not.toHaveProperty('pendingInvoke');
    expect(store.jobs.get(job.id)?.pendingInvoke).toBe('UserSend');
    const got = m.invoke('getTask', { taskId: task.id });
    expect(got.task).toEqual(task);
    expect(got.jobs).toEqual([job]);
    expect(got.comments).toEqual([
      expect.objectContaining({ author: 'user', kind: 'instruction', body: 'First line\nsecond line', jobId: job.id }),
    ]);
    expect(rowCounts(store)).toMatchObject({ tasks: 1, jobs: 1, comments: 1 });
    expect(events.sort()).toEqual(['comment.created', 'job.changed', 'task.created']);
  });

  it('P1.01 title: given one is kept; a derived one is cut at 80 characters', () => {
    const { create } = setup();
    expect(create({ title: 'Mine' }).task.title).toBe('Mine');
    const long = create({ instruction: `  ${'x'.repeat(100)}\nmore` }).task.title;
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
  });

  it.each([
    ['no instruction', {}, 'instruction'],
    ['an empty instruction', { instruction: '' }, 'instruction'],
    ['a blank instruction', { instruction: '   \n ' }, 'instruction'],
    ['an instruction of the wrong type', { instruction: 42 }, 'instruction'],
    ['a title of the wrong type', { instruction: 'x', title: ['t'] }, 'title'],
    ['an unknown field', { instruction: 'x', priority: 'high' }, ''],
    ['attachments that are not a list', { instruction: 'x', attachments: 'file.txt' }, 'attachments'],
  ])('P1.02 %s → invalid_input with issues; no task, comment or job row', (_name, input, field) => {
    const { m, store } = setup();
    const error = expectMaestroError(() => m.invoke('createTask', input), 'invalid_input');
    expect(error.issues?.length).toBeGreaterThan(0);
    if (field) expect(error.issues?.map((i) => i.path[0])).toContain(field);
    else expect(error.message).toMatch(/priority|unrecognized/i);
    expect(error.toBody()).toMatchObject({ code: 'invalid_input', issues: error.issues });
    expectNothingCreated(store, m.ctx.dataDir);
  });

  it('P1.02 a null or non-object body → invalid_input, nothing written', () => {
    const { m, store } = setup();
    expectMaestroError(() => m.invoke('createTask', null), 'invalid_input');
    expectMaestroError(() => m.invoke('createTask', 'instruction'), 'invalid_input');
    expectNothingCreated(store, m.ctx.dataDir);
  });

  it.each([
    ['pieceId', { pieceId: 'no-such-piece' }],
    ['profile', { profile: 'no-such-profile' }],
    ['workspacePath', { workspacePath: '/definitely/not/here' }],
    ['workspacePath', { workspacePath: 'relative/path' }],
  ])('P1.25 an unknown or unusable %s → invalid_input naming the field; nothing created', (field, extra) => {
    const { m, store } = setup();
    const error = expectMaestroError(() => m.invoke('createTask', { instruction: 'x', ...extra }), 'invalid_input');
    expect(error.issues?.[0]?.path).toEqual([field]);
    expect(error.message).toContain(field);
    expectNothingCreated(store, m.ctx.dataDir);
  });

  it('P1.25 a workspacePath that is a file, not a folder → invalid_input naming workspacePath', () => {
    const { m, store } = setup();
    const file = path.join(tempDir(), 'file.txt');
    fs.writeFileSync(file, 'x');
    const error = expectMaestroError(
      () => m.invoke('createTask', { instruction: 'x', workspacePath: file }),
      'invalid_input',
    );
    expect(error.issues?.[0]?.path).toEqual(['workspacePath']);
    expectNothingCreated(store, m.ctx.dataDir);
  });

  it('P1.25 a known profile, a workspace folder and a piece defined in that workspace are accepted', () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, '.maestro', 'pieces'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.maestro', 'pieces', 'local.yaml'),
      'id: local\nname: Local\nmovements:\n  - name: only\n',
    );
    const { m, create } = setup({ env: { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } });
    acceptWorkspaceSettings(m, ws);
    const { task, job } = create({ workspacePath: ws, pieceId: 'local', profile: 'env' });
    expect(task).toMatchObject({ workspacePath: fs.realpathSync(ws), pieceId: 'local', profile: 'env' });
    expect(job).toMatchObject({ pieceId: 'local', profile: 'env' });
    // Without a profile the env profile is the default.
    expect(create().task.profile).toBe('env');
  });

  it('P1.26 without workspacePath the --workspace default is used (persistent)', () => {
    const ws = tempDir();
    const { store, create } = setup({ defaultWorkspace: ws });
    const { task } = create();
    expect(task.workspacePath).toBe(fs.realpathSync(ws));
    expect(store.tasks.workspaceKind(task.id)).toBe('persistent');
    // A given folder still wins over the default.
    const other = tempDir();
    expect(create({ workspacePath: other }).task.workspacePath).toBe(fs.realpathSync(other));
  });

  it('P1.26 without workspacePath and no default → an ephemeral folder under the data dir', () => {
    const { m, store, create } = setup();
    const { task } = create();
    expect(task.workspacePath).toBe(path.join(m.ctx.dataDir, 'workspaces', task.id));
    expect(fs.statSync(task.workspacePath).isDirectory()).toBe(true);
    expect(store.tasks.workspaceKind(task.id)).toBe('ephemeral');
    expect(task.profile).toBeNull();
  });
});

describe('createTask attachments (P10.09)', () => {
  it('a valid attachment lands in runs/{taskId}/attachments/ with its bytes', () => {
    const { m, create } = setup();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const { task } = create({
      attachments: [
        { name: 'notes.txt', mediaType: 'text/plain', data: b64('hello\n') },
        { name: 'pic.png', mediaType: 'image/png', data: b64(png) },
      ],
    });
    const dir = path.join(m.ctx.dataDir, 'runs', task.id, 'attachments');
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(fs.readFileSync(path.join(dir, 'pic.png')).equals(png)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'pic.png']);
  });

  const cases: [string, unknown][] = [
    ['one file over 10 MiB', [{ name: 'big.txt', mediaType: 'text/plain', data: b64(Buffer.alloc(10 * MIB + 1)) }]],
    [
      'over 25 MiB in all',
      [1, 2, 3].map((i) => ({ name: `f${i}.txt`, mediaType: 'text/plain', data: b64(Buffer.alloc(9 * MIB)) })),
    ],
    ['data that is not base64', [{ name: 'a.txt', mediaType: 'text/plain', data: 'not base64!' }]],
    ['truncated base64', [{ name: 'a.txt', mediaType: 'text/plain', data: 'aGVsbG8' }]],
    [
      'two attachments of the same name',
      [
        { name: 'a.txt', mediaType: 'text/plain', data: b64('1') },
        { name: 'a.txt', mediaType: 'text/plain', data: b64('2') },
      ],
    ],
    [
      'two names that differ only in case',
      [
        { name: 'Read.md', mediaType: 'text/markdown', data: b64('1') },
        { name: 'read.md', mediaType: 'text/markdown', data: b64('2') },
      ],
    ],
    ['a name with a path', [{ name: '../escape.txt', mediaType: 'text/plain', data: b64('x') }]],
    ['a name with a control character', [{ name: 'a\u0000b.txt', mediaType: 'text/plain', data: b64('x') }]],
    [
      'a type that is neither text nor image',
      [{ name: 'a.exe', mediaType: 'application/x-msdownload', data: b64('x') }],
    ],
  ];
  it.each(cases)('%s → invalid_input naming attachments; nothing written', (_name, attachments) => {
    const { m, store } = setup();
    const error = expectMaestroError(() => m.invoke('createTask', { instruction: 'x', attachments }), 'invalid_input');
    expect(error.issues?.[0]?.path[0]).toBe('attachments');
    expectNothingCreated(store, m.ctx.dataDir);
  });
});
