// The config-file reader and its one error: the file, the field at fault and why, never a value of the file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../test-support/temp-maestro';
import { brokenFileError, ConfigFileError, parseConfigJson, readConfigText, readJsonFile } from './json-file';

const Schema = z.strictObject({ hooks: z.array(z.strictObject({ url: z.string(), secret: z.string() })) });
const SECRET = 'do-not-quote-me';

function written(text: string): string {
  const file = path.join(tempDir(), 'config.json');
  fs.writeFileSync(file, text);
  return file;
}

describe('data-dir files', () => {
  it('absent, ok, or broken with the problem, the fields at fault and the first field; never the text', () => {
    expect(readJsonFile(path.join(tempDir(), 'none.json'), Schema)).toEqual({ kind: 'absent' });
    const good = { hooks: [{ url: 'u', secret: SECRET }] };
    expect(readJsonFile(written(JSON.stringify(good)), Schema)).toEqual({ kind: 'ok', value: good });
    expect(readJsonFile(written(`{ "secret": "${SECRET}"`), Schema)).toEqual({
      kind: 'broken',
      problem: 'is not valid JSON',
    });
    const bad = readJsonFile(written(JSON.stringify({ hooks: [{ url: 5, secret: SECRET }] })), Schema);
    expect(bad).toMatchObject({
      kind: 'broken',
      field: 'hooks.0.url',
      invalid: expect.stringMatching(/^hooks\.0\.url: /),
    });
    expect(JSON.stringify(bad)).not.toContain(SECRET);
    expect(readJsonFile(tempDir(), Schema)).toEqual({ kind: 'broken', problem: 'cannot be read (EISDIR)' });
  });

  it('one error class: "<file> is not a valid <what>: <fields>; <instead>", with its file, field and code', () => {
    const file = written(JSON.stringify({ hooks: [{ url: 'u' }] }));
    const read = readJsonFile(file, Schema);
    if (read.kind !== 'broken') throw new Error('expected a broken read');
    const error = brokenFileError(file, read, { what: 'hooks file', instead: 'hooks are off' });
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error.message).toMatch(/^.*config\.json is not a valid hooks file: hooks\.0\.secret: .*; hooks are off$/);
    expect(error).toMatchObject({ name: 'ConfigFileError', code: 'config_file_broken', file, field: 'hooks.0.secret' });
    expect(brokenFileError(file, { kind: 'broken', problem: 'is not valid JSON' }).message).toBe(
      `${file} is not valid JSON`,
    );
  });
});

describe('workspace files', () => {
  it('reads the text, null when absent; an unreadable file names itself and its error code', () => {
    expect(readConfigText(written('{}'))).toBe('{}');
    expect(readConfigText(path.join(tempDir(), 'none.json'))).toBeNull();
    const dir = tempDir();
    expect(() => readConfigText(dir)).toThrow(new ConfigFileError(dir, 'cannot be read (EISDIR)'));
    expect(() => readConfigText(dir)).toThrow(`${dir}: cannot be read (EISDIR)`);
  });

  it('parses against the schema; every field at fault is named, "(top level)" for the file as a whole', () => {
    expect(parseConfigJson('{"hooks":[]}', 'F', Schema)).toEqual({ hooks: [] });
    expect(() => parseConfigJson('{', 'F', Schema)).toThrow(/^F: not valid JSON \(/);
    expect(() => parseConfigJson('[]', 'F', Schema)).toThrow(/^F: \(top level\): /);
    let error: unknown;
    try {
      parseConfigJson(JSON.stringify({ hooks: [{ url: 1, secret: 2 }] }), 'F', Schema);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as ConfigFileError).message).toMatch(/^F: hooks\.0\.url: .*; hooks\.0\.secret: /);
    expect((error as ConfigFileError).field).toBe('hooks.0.url');
  });
});
