// The Auto Prompter's rules file (format, errors naming the file and the field), its matching, and the Settings
// operations over the real HTTP bridge.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testBridge } from '../../test-support/bridge-harness';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import { autoPrompterFile, loadAutoPrompter, parseAutoPrompter } from './auto-prompter-file';
import { compileRules, ruleMatches, workspaceRelative } from './auto-prompter-rules';

/** The example of tools/README.md. */
const EXAMPLE = {
  enabled: true,
  rules: [
    {
      id: 'no-rm',
      match: { tool: 'run_command', args: { command: { regex: '^\\s*rm\\b' } } },
      action: 'deny',
      reason: 'Do not delete files; say which ones should go.',
    },
    { id: 'secrets', match: { tool: 'read_file', args: { path: { glob: '.env*' } } }, action: 'deny', reason: 'No.' },
    { match: { tool: 'write_file' }, action: 'instruct', text: 'Run the tests after changing files.' },
    {
      id: 'tests-once',
      match: { tool: 'run_command', args: { command: { equals: 'npm test' } } },
      action: 'approve_once',
    },
  ],
};

describe('the rules file', () => {
  it('parses the documented example; no file means off (null)', () => {
    expect(parseAutoPrompter(JSON.stringify(EXAMPLE), 'f')).toEqual(EXAMPLE);
    expect(parseAutoPrompter('{"enabled": false}', 'f')).toEqual({ enabled: false, rules: [] });
    expect(loadAutoPrompter(tempDir())).toBeNull();
  });

  it.each([
    ['{', /^F: not valid JSON/],
    ['[]', /^F: \(top level\): /],
    ['{"rules": []}', /^F: enabled: /],
    ['{"enabled": true, "extra": 1}', /^F: \(top level\): Unrecognized key: "extra"/],
    ['{"enabled": true, "rules": [{"match": {"tool": "x"}, "action": "allow"}]}', /^F: rules\.0\.action: /],
    ['{"enabled": true, "rules": [{"match": {"tool": "x"}, "action": "deny"}]}', /^F: rules\.0\.reason: /],
    [
      '{"enabled": true, "rules": [{"match": {"tool": ""}, "action": "instruct", "text": "t"}]}',
      /^F: rules\.0\.match\.tool: must not be empty/,
    ],
    [
      '{"enabled": true, "rules": [{"match": {"tool": "run_command"}, "action": "approve_once"}]}',
      /^F: rules\.0\.match\.args: approve_once is bound to the arguments/,
    ],
    [
      '{"enabled": true, "rules": [{"match": {"tool": "x", "args": {"command": {"regex": "(["}}}, "action": "deny", "reason": "r"}]}',
      /^F: rules\.0\.match\.args\.command\.regex: is not a valid regular expression/,
    ],
    [
      '{"enabled": true, "rules": [{"match": {"tool": "x", "args": {"path": {"glob": "a", "equals": "b"}}}, "action": "deny", "reason": "r"}]}',
      /^F: rules\.0\.match\.args\.path: give exactly one of regex, glob, equals/,
    ],
    [
      '{"enabled": true, "rules": [{"id": "a", "match": {"tool": "x"}, "action": "deny", "reason": "r"}, {"id": "a", "match": {"tool": "y"}, "action": "deny", "reason": "r"}]}',
      /^F: rules\.1\.id: a is used twice/,
    ],
    [
      '{"enabled": true, "rules": [{"id": "has space", "match": {"tool": "x"}, "action": "deny", "reason": "r"}]}',
      /^F: rules\.0\.id: /,
    ],
  ])('refuses %s with an error naming the file and the field', (text, message) => {
    expect(() => parseAutoPrompter(text, 'F')).toThrow(ConfigFileError);
    expect(() => parseAutoPrompter(text, 'F')).toThrow(message);
  });

  it('a file that cannot be read is an error naming it', () => {
    const ws = tempDir();
    fs.mkdirSync(autoPrompterFile(ws), { recursive: true }); // a folder where the file should be
    expect(() => loadAutoPrompter(ws)).toThrow(`${autoPrompterFile(ws)}: cannot be read`);
  });
});

describe('matching a call', () => {
  const rule = (match: unknown) =>
    compileRules([
      { match, action: 'deny', reason: 'r' } as Parameters<typeof compileRules>[0][number],
    ])[0] as ReturnType<typeof compileRules>[number];

  it('the tool is a name or a glob over names; every argument test must pass; a regex is searched', () => {
    const ws = tempDir();
    expect(ruleMatches(rule({ tool: 'run_command' }), 'run_command', {}, ws)).toBe(true);
    expect(ruleMatches(rule({ tool: 'run_command' }), 'run_commands', {}, ws)).toBe(false);
    expect(ruleMatches(rule({ tool: 'mcp__gh__*' }), 'mcp__gh__create_issue', {}, ws)).toBe(true);
    const both = rule({ tool: '*', args: { command: { regex: 'rm' }, cwd: { equals: 'src' } } });
    expect(ruleMatches(both, 'run_command', { command: 'sudo rm -rf x', cwd: 'src' }, ws)).toBe(true);
    expect(ruleMatches(both, 'run_command', { command: 'sudo rm -rf x' }, ws)).toBe(false);
    expect(ruleMatches(both, 'run_command', { command: 'ls', cwd: 'src' }, ws)).toBe(false);
    const limit = rule({ tool: 'read_file', args: { limit: { equals: '10' } } });
    expect(ruleMatches(limit, 'read_file', { path: 'a', limit: 10 }, ws)).toBe(true);
    expect(ruleMatches(limit, 'read_file', { path: 'a', limit: [10] }, ws)).toBe(false);
  });

  it('a path glob sees the path as the tools resolve it: ./, .., absolute spellings and links inside do not dodge it', () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, 'secret'));
    fs.writeFileSync(path.join(ws, 'secret', 'key.txt'), 'k');
    fs.symlinkSync(path.join(ws, 'secret'), path.join(ws, 'alias'));
    const secret = rule({ tool: 'read_file', args: { path: { glob: 'secret/**' } } });
    for (const given of [
      'secret/key.txt',
      './secret/key.txt',
      'src/../secret/key.txt',
      path.join(ws, 'secret/key.txt'),
      'alias/key.txt',
    ])
      expect(ruleMatches(secret, 'read_file', { path: given }, ws), given).toBe(true);
    expect(ruleMatches(secret, 'read_file', { path: 'public/key.txt' }, ws)).toBe(false);
    expect(workspaceRelative('../elsewhere/./x/', ws)).toBe('../elsewhere/x');
  });
});

describe('the Settings operations over HTTP', () => {
  it('GET /auto-prompter and POST /auto-prompter read and replace the default workspace’s file', async () => {
    const ws = tempDir('maestro-ws-');
    const b = await testBridge({ maestro: { defaultWorkspace: ws } });
    const file = autoPrompterFile(fs.realpathSync(ws));
    const empty = await b.api('GET', '/auto-prompter');
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({
      workspacePath: fs.realpathSync(ws),
      file,
      exists: false,
      settings: { enabled: false, rules: [] },
      error: null,
    });

    const saved = await b.api('POST', '/auto-prompter', EXAMPLE);
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ exists: true, settings: EXAMPLE, error: null });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(EXAMPLE);
    expect((await b.api('GET', '/auto-prompter')).json.settings).toEqual(EXAMPLE);
  });

  it('a bad save is a 400 naming the field, and the file is unchanged; a broken file is reported, not thrown', async () => {
    const ws = tempDir('maestro-ws-');
    const b = await testBridge({ maestro: { defaultWorkspace: ws } });
    const file = autoPrompterFile(fs.realpathSync(ws));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"enabled": true, "rules": [{"match": {"tool": "x"}, "action": "approve_once"}]}');
    const before = fs.readFileSync(file, 'utf8');
    // A person accepted the file as it is (its card): Settings shows the version in force, here a broken one.
    acceptWorkspaceSettings(b.maestro, ws);

    const read = await b.api('GET', '/auto-prompter');
    expect(read.status).toBe(200);
    expect(read.json.error).toBe(
      `${file}: rules.0.match.args: approve_once is bound to the arguments: give at least one argument matcher`,
    );
    expect(read.json.settings).toEqual({ enabled: false, rules: [] });

    const bad = await b.api('POST', '/auto-prompter', {
      enabled: true,
      rules: [{ match: { tool: 'x' }, action: 'deny' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_input');
    expect(bad.json.error.issues).toEqual([expect.objectContaining({ path: ['rules', 0, 'reason'] })]);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('without a default workspace there is nothing to edit: GET says so, POST is a conflict', async () => {
    const b = await testBridge({ maestro: { defaultWorkspace: null } });
    expect((await b.api('GET', '/auto-prompter')).json).toMatchObject({ workspacePath: null, file: null });
    const saved = await b.api('POST', '/auto-prompter', { enabled: true, rules: [] });
    expect(saved.status).toBe(409);
    expect(saved.json.error.code).toBe('conflict');
  });
});
