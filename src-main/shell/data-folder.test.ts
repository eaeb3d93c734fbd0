// The data folder is opened as main knows it, whatever the renderer sends, and a failure to open is reported.
import { describe, expect, it } from 'vitest';
import { openDataFolder } from './data-folder';

describe('open data folder', () => {
  it('opens main’s data dir and answers ok', async () => {
    const opened: string[] = [];
    const result = await openDataFolder('/data/maestro', async (folder) => {
      opened.push(folder);
      return '';
    });
    expect(result).toEqual({ ok: true, value: { opened: true } });
    expect(opened).toEqual(['/data/maestro']);
  });

  it('a folder the OS cannot open → an error naming the folder and the reason', async () => {
    const result = await openDataFolder('/data/maestro', async () => 'no application to open folders');
    expect(result).toEqual({
      ok: false,
      error: { code: 'internal', message: 'cannot open /data/maestro: no application to open folders' },
    });
  });
});
