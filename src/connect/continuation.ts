/**
 * How a list is followed past its first answer, in one place for every reader of a list: the app's own
 * (`connectList`), the conformance kit's, and the tests' and scripts' (`wholeListOf`). A list continues as the
 * dialect's `list.next` says (`dialect.ts`): a cursor beside the records sent back in a query parameter of the
 * same request, a link beside the records, or the `Link` header's relation. `pageAfter` works out the next
 * page's address from one answer; `followPages` asks page after page until the list ends, a page is named a
 * second time, the reader stops, or the most pages it may read are read, and says which.
 */
import { type ListNext, linkTarget } from './dialect';

/** What one list answer says of its next page: its members beside the records, and its `Link` header. */
export interface PageSigns {
  /** The value of a member beside the records, by its path (`next`, `result.next`); undefined when absent. */
  member(path: string): unknown;
  /** The answer's `Link` header, or null. */
  link: string | null;
}

/**
 * The absolute address of the page after an answer of a list first asked at `first` (an absolute address),
 * as `next` names it: `first` with the cursor in its query parameter, or the link as named, resolved against
 * `base` (default `first`); null when the answer names none (the list's end) or the list does not continue.
 */
export const pageAfter = (
  next: ListNext | null,
  first: string,
  signs: PageSigns,
  base: string = first,
): string | null => {
  if (next === null) return null;
  const value = 'link' in next ? linkTarget(signs.link, next.link) : signs.member(next.member);
  if (typeof value !== 'string' || value === '') return null;
  if ('link' in next || next.cursor === null) return new URL(value, base).toString();
  const address = new URL(first);
  address.searchParams.set(next.cursor, value);
  return address.toString();
};

/** One page as a reader of `followPages` read it. */
export interface PageRead {
  /** What the page says of the next one. */
  signs: PageSigns;
  /**
   * Asked only when the page names a next one: true when the reader has what it reads for, so the next page
   * is not asked (a lookup that found its record).
   */
  enough?: () => boolean;
}

/**
 * How a list read by `followPages` ended: `last`, its last page was read (it named no next one); `repeated`,
 * a page named a page already read (`repeated` is its address); `stopped`, the reader stopped at a page (a
 * failure, a limit of its own); `enough`, the reader had what it read for; `most`, the most pages allowed
 * were read and the last of them named another.
 */
export interface Followed {
  end: 'last' | 'repeated' | 'stopped' | 'enough' | 'most';
  /** The pages read (asked and answered, the one a reader stopped at included). */
  pages: number;
  /** With `repeated`: the address named again. With `most`: the address of the page left unread. */
  unread?: string;
}

/**
 * Reads a list page after page from its first address (absolute), as `next` says it continues: `read`
 * answers each page's signs, or null to stop there. `base` resolves relative links (default `first`).
 */
export const followPages = async (
  next: ListNext | null,
  first: string,
  read: (address: string, index: number) => Promise<PageRead | null>,
  options: { base?: string; most?: number } = {},
): Promise<Followed> => {
  const asked = new Set<string>();
  const most = options.most ?? Number.POSITIVE_INFINITY;
  let address = first;
  for (;;) {
    asked.add(address);
    const page = await read(address, asked.size - 1);
    if (page === null) return { end: 'stopped', pages: asked.size };
    const after = pageAfter(next, first, page.signs, options.base ?? first);
    if (after === null) return { end: 'last', pages: asked.size };
    if (asked.has(after)) return { end: 'repeated', pages: asked.size, unread: after };
    if (page.enough?.()) return { end: 'enough', pages: asked.size };
    if (asked.size >= most) return { end: 'most', pages: asked.size, unread: after };
    address = after;
  }
};
