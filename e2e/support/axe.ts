// axe-core over a part of the page: no serious or critical violation inside it.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical axe-core violation inside `selector`. */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
