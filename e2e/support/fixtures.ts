// Playwright fixtures: `host` is a fresh headless host per test, stopped and removed afterwards.
import { test as base } from '@playwright/test';
import { type HeadlessHost, startHeadlessHost } from './headless-host';

export const test = base.extend<{ host: HeadlessHost }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
  host: async ({}, use, testInfo) => {
    const host = await startHeadlessHost();
    try {
      await use(host);
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('headless-host.log', { body: host.output(), contentType: 'text/plain' });
      }
      await host.stop();
    }
  },
});

export { expect } from '@playwright/test';
