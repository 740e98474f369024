/**
 * The Event dropdown as Zapier's "Load more" walks it: page after page until one comes back empty.
 */
import { LIST_LIMIT_MAX } from '../../src/connect';

/** A dropdown choice as Zapier shows it. */
export interface Choice {
  id: string;
  label: string;
}

/**
 * Every page of a dropdown, from page 0 until one is empty (at most `maxPages`), checked as Zapier would
 * need them: none longer than the list limit, the first one full, the last one empty, no choice twice.
 */
export const everyDropdownPage = async (
  page: (n: number) => Promise<Choice[]>,
  maxPages = 20,
): Promise<Choice[][]> => {
  const pages: Choice[][] = [];
  for (let n = 0; n < maxPages; n++) {
    const choices = await page(n);
    pages.push(choices);
    if (choices.length === 0) break;
    expect(choices.length).toBeLessThanOrEqual(LIST_LIMIT_MAX);
  }
  expect(pages.at(-1)).toEqual([]);
  expect(pages[0]).toHaveLength(LIST_LIMIT_MAX);
  const ids = pages.flat().map((choice) => choice.id);
  expect(new Set(ids).size).toBe(ids.length);
  return pages;
};
