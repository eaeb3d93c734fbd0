// End-to-end tests. `headless`: the built renderer in Chromium against the built headless host (one host and data
// dir per test). `electron`: the same app through Playwright's Electron support. Build first: `npx electron-vite build`.
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  // Each test owns a host process; two cores are shared, so one test at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // One retry, reported as "flaky" in the summary, never as passed: the feed's row overlap is fixed and checked after
  // every event (e2e/feed-overlap.headless.spec.ts), but 27 specs of issue 23 were written on a machine under heavy
  // load and have not yet run enough on a quiet one to go without (a flaky report is a bug to find, not noise).
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: 'test-results/e2e',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'headless',
      testMatch: /headless\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: fs.existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
          ],
        },
      },
    },
    {
      name: 'electron',
      testMatch: /electron\.spec\.ts$/,
    },
  ],
});
