// The list of files that run code outside the sandbox, matched as the writing tools match it: at any depth, in any
// case, and nothing that only looks like one.
import { describe, expect, it } from 'vitest';
import { FOLDER_ENTRIES, GIT_DIR_ENTRIES, runsOutside } from './runs-outside';

describe('runsOutside', () => {
  it.each([
    '.git/config',
    '.git/hooks/pre-commit',
    '.git/info/attributes',
    '.git/modules/lib/config',
    '.git/modules/lib/hooks/post-checkout',
    '.git/worktrees/w/config.worktree',
    '.git/commondir',
    '.git',
    'sub/.git',
    'sub/.git/config',
    'a/b/c/d/e/.git/hooks/pre-push',
    '.GIT/CONFIG',
    '.Git/Hooks/x',
    '.gitmodules',
    'lib/.gitmodules',
    '.envrc',
    'pkg/.envrc',
    '.vscode/tasks.json',
    '.VSCode/settings.json',
    '.idea/workspace.xml',
    '.husky/pre-commit',
    '.bashrc',
    '.mcp.json',
    '.claude/commands/x.md',
  ])('%s runs code outside the sandbox', (rel) => {
    expect(runsOutside(rel)).toEqual(expect.any(String));
  });

  it.each([
    'src/config',
    'git/config',
    '.github/workflows/ci.yml',
    '.gitignore',
    '.gitattributes',
    'notes/.envrc.example',
    '.git/HEAD',
    '.git/objects/ab/cdef',
    'x.git/config',
    '.vscode-like/tasks.json',
    '.claude/settings.json',
  ])('%s does not', (rel) => {
    expect(runsOutside(rel)).toBeNull();
  });

  it('every entry says why it is there', () => {
    for (const entry of [...FOLDER_ENTRIES, ...GIT_DIR_ENTRIES]) expect(entry.reason.length).toBeGreaterThan(20);
  });
});
