import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'test-support/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
    // One throwaway PostgreSQL cluster for the run where its binaries are (test-support/pg-test-db.ts hands out databases).
    globalSetup: ['test-support/pg-global-setup.ts'],
    // Vitest's default is one worker fewer than the cores: one on CI's two, which ran every file one after another.
    // Most tests wait on a child process, git, a sandbox or a socket, so two files at a time fit two cores.
    maxWorkers: 2,
  },
});
