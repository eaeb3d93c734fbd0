// TAKT's GitHub main (not released on npm: takt-release.test.ts keeps to the newest release), for the tests that read
// its builtins: a checkout of nrslib/takt — a git dir (a bare mirror) or a work tree — named by TAKT_MAIN_CHECKOUT, or
// the tool library's mirror of it on a developer's machine. Its builtins are extracted once per commit into
// node_modules/.cache (never committed), as the release test keeps the npm package. Null when there is no checkout
// (CI has no network to GitHub): the tests then say SKIPPED, and the fixtures (pieces/takt-fixtures/main) are the proof.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DEFAULT_CHECKOUT = '/work/.mirror/nrslib+takt/repo';
const CACHE = path.join(__dirname, '../node_modules/.cache');

export interface TaktMain {
  /** The folder holding `en/`, `ja/` and `schemas/` (TAKT's builtins). */
  builtins: string;
  commit: string;
}

function git(dir: string, args: string[]): string {
  const gitDir = fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8', timeout: 60_000 }).trim();
}

/** TAKT main's builtins, or null (with the reason printed) when no checkout is on this machine. */
export function taktMain(): TaktMain | null {
  const checkout = process.env.TAKT_MAIN_CHECKOUT ?? DEFAULT_CHECKOUT;
  if (!fs.existsSync(checkout)) {
    console.warn(
      `SKIPPED: no checkout of TAKT's main at ${checkout} (set TAKT_MAIN_CHECKOUT to a clone of github.com/nrslib/takt); the fixtures in pieces/takt-fixtures/main stand in`,
    );
    return null;
  }
  try {
    const commit = git(checkout, ['rev-parse', 'HEAD']);
    const root = path.join(CACHE, `takt-main-${commit.slice(0, 12)}`);
    const builtins = path.join(root, 'builtins');
    if (!fs.existsSync(path.join(builtins, 'en', 'workflows'))) {
      fs.mkdirSync(root, { recursive: true });
      const tar = path.join(root, 'builtins.tar');
      git(checkout, ['archive', '--format=tar', `--output=${tar}`, 'HEAD', 'builtins']);
      execFileSync('tar', ['-xf', tar, '-C', root]);
      fs.rmSync(tar);
    }
    return { builtins, commit };
  } catch (error) {
    console.warn(`SKIPPED: TAKT's main could not be read from ${checkout}: ${(error as Error).message}`);
    return null;
  }
}

/**
 * A workspace's `.maestro/` in TAKT main's layout from its `lang` builtins: workflows as pieces (their rules/ beside
 * them), facets, step fragments, facet pools, companions, provider options and the shared schemas.
 */
export function taktMainWorkspace(main: TaktMain, ws: string, lang = 'en'): void {
  const from = path.join(main.builtins, lang);
  const to = path.join(ws, '.maestro');
  fs.cpSync(path.join(from, 'workflows'), path.join(to, 'pieces'), { recursive: true });
  for (const dir of ['facets', 'steps', 'facet-pools', 'companions', 'provider-options']) {
    if (fs.existsSync(path.join(from, dir))) fs.cpSync(path.join(from, dir), path.join(to, dir), { recursive: true });
  }
  fs.cpSync(path.join(main.builtins, 'schemas'), path.join(to, 'schemas'), { recursive: true });
}
