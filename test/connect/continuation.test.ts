/**
 * How a list continues past its first answer (`continuation.ts`): the next page's address as the app, the
 * conformance kit and the tests work it out, and the walk from page to page with each way it can end.
 */
import { type PageSigns, followPages, pageAfter } from '../../src/connect/continuation';
import type { ListNext } from '../../src/connect/dialect';

const FIRST = 'https://api.example.com/api/v1/integrations/zapier/orders?companyId=cmp_42&limit=100';
const BASE = 'https://api.example.com/';

const signs = (members: Record<string, unknown>, link: string | null = null): PageSigns => ({
  member: (path) => members[path],
  link,
});

describe('pageAfter', () => {
  it('sends a cursor back in its query parameter, on the first request, whatever page named it', () => {
    const next: ListNext = { member: 'result.next', cursor: 'cursor' };
    expect(pageAfter(next, FIRST, signs({ 'result.next': 'c_20' }), BASE)).toBe(`${FIRST}&cursor=c_20`);
    // A later page's cursor replaces the earlier one rather than adding a second.
    const later = pageAfter(next, `${FIRST}&cursor=c_20`, signs({ 'result.next': 'c/40' }), BASE);
    expect(new URL(later as string).searchParams.getAll('cursor')).toEqual(['c/40']);
  });

  it('follows a link in a member or in the Link header as named, a relative one against the base', () => {
    const member: ListNext = { member: 'next', cursor: null };
    expect(pageAfter(member, FIRST, signs({ next: '/api/v1/orders?page=2' }), BASE)).toBe(
      'https://api.example.com/api/v1/orders?page=2',
    );
    const header: ListNext = { link: 'next' };
    const link =
      '<https://api.example.com/o?cursor=c2>; rel="next", <https://api.example.com/o>; rel="first"';
    expect(pageAfter(header, FIRST, signs({}, link), BASE)).toBe('https://api.example.com/o?cursor=c2');
  });

  it('ends the list where nothing names a next page, or the list does not continue', () => {
    const member: ListNext = { member: 'next', cursor: 'cursor' };
    for (const value of [null, '', undefined, 42])
      expect(pageAfter(member, FIRST, signs({ next: value }))).toBeNull();
    expect(pageAfter({ link: 'next' }, FIRST, signs({}, '<https://a.example/x>; rel="prev"'))).toBeNull();
    expect(pageAfter(null, FIRST, signs({ next: 'c_2' }))).toBeNull();
  });
});

describe('followPages', () => {
  const next: ListNext = { member: 'next', cursor: 'cursor' };
  /** A list of `count` pages whose page i names cursor `c<i+1>`, the last none; `named` overrides one page's. */
  const pages = (count: number, named: Record<number, string> = {}) => {
    const asked: string[] = [];
    const read = async (address: string) => {
      asked.push(address);
      const at = Number(new URL(address).searchParams.get('cursor')?.slice(1) ?? 0);
      const value = named[at] ?? (at + 1 < count ? `c${at + 1}` : null);
      return { signs: signs({ next: value }) };
    };
    return { asked, read };
  };

  it('reads every page to the last, each asked once', async () => {
    const list = pages(4);
    expect(await followPages(next, FIRST, list.read)).toEqual({ end: 'last', pages: 4 });
    expect(list.asked.map((a) => new URL(a).searchParams.get('cursor'))).toEqual([null, 'c1', 'c2', 'c3']);
  });

  it('ends where a page names one already read, and says which', async () => {
    const list = pages(5, { 2: 'c1' });
    expect(await followPages(next, FIRST, list.read)).toEqual({
      end: 'repeated',
      pages: 3,
      unread: `${FIRST}&cursor=c1`,
    });
  });

  it('stops where the reader stops, and where it has enough (asked only when a next page is named)', async () => {
    const stopping = pages(5);
    const stopped = await followPages(next, FIRST, async (address, index) =>
      index === 1 ? null : stopping.read(address),
    );
    expect(stopped).toEqual({ end: 'stopped', pages: 2 });
    const list = pages(3);
    let asked = 0;
    const enough = async (address: string) => ({
      ...(await list.read(address)),
      enough: () => ++asked > 0,
    });
    expect(await followPages(next, FIRST, enough)).toEqual({ end: 'enough', pages: 1 });
    const last = pages(1);
    const never = async (address: string) => ({ ...(await last.read(address)), enough: () => true });
    expect(await followPages(next, FIRST, never)).toEqual({ end: 'last', pages: 1 });
  });

  it('reads at most the pages it is given, naming the first one left unread', async () => {
    const list = pages(10);
    expect(await followPages(next, FIRST, list.read, { most: 3 })).toEqual({
      end: 'most',
      pages: 3,
      unread: `${FIRST}&cursor=c3`,
    });
    expect(list.asked).toHaveLength(3);
  });
});
