// The folder picker's main-side rules, with the OS dialog replaced by a recorder (no display here): input validated
// before any dialog opens, the dialog asked for a folder, a cancel answered as null, a vanished folder refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { type OpenDialogAnswer, type OpenDialogOptions, pickFolder } from './folder-picker';

function dialogAnswering(answer: OpenDialogAnswer) {
  const asked: OpenDialogOptions[] = [];
  const show = async (options: OpenDialogOptions) => {
    asked.push(options);
    return answer;
  };
  return { asked, show };
}

describe('pickFolder', () => {
  it('opens a folder dialog and answers the picked, existing folder', async () => {
    const dir = tempDir();
    const { asked, show } = dialogAnswering({ canceled: false, filePaths: [dir] });
    expect(await pickFolder({ defaultPath: dir }, show)).toEqual({ ok: true, value: { path: dir } });
    expect(asked).toEqual([{ properties: ['openDirectory', 'createDirectory'], defaultPath: dir }]);
  });

  it('answers null when the user cancels, and ignores a relative start folder', async () => {
    const { asked, show } = dialogAnswering({ canceled: true, filePaths: [] });
    expect(await pickFolder({ defaultPath: 'relative/dir' }, show)).toEqual({ ok: true, value: { path: null } });
    expect(asked[0]).not.toHaveProperty('defaultPath');
  });

  it('refuses bad input before any dialog opens, naming the field', async () => {
    const { asked, show } = dialogAnswering({ canceled: true, filePaths: [] });
    const bad = await pickFolder({ defaultPath: 42 }, show);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_input');
      expect(bad.error.issues?.[0]?.path).toEqual(['defaultPath']);
    }
    expect((await pickFolder({ anything: 'else' }, show)).ok).toBe(false);
    expect(asked).toEqual([]);
  });

  it('refuses a picked path that is not an existing folder', async () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    const { show } = dialogAnswering({ canceled: false, filePaths: [file] });
    const answer = await pickFolder({}, show);
    expect(answer).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `${file} is not an existing folder` },
    });
  });
});
