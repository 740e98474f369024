/** Checks every keyed list with `limit` shares (events, orders): default, clamping, newest kept, order. */
import type { ObjectSchema, RecordRule } from '../../../src/connect/records';
import { LIST_LIMIT_MAX } from '../../../src/connect/schemas';
import { type ListOutcome, answerText, overWholeList, pagesWords, readList } from '../evaluate';
import type { Query } from '../http';
import type { Run } from '../run';
import { type Outcome, differs, holds, tolerated, unchecked } from '../types';

export const LIST_LIMIT_DEFAULT = 20;

interface Dated {
  createdAt: string;
}

export interface NamedOutcome {
  name: string;
  assumption: string;
  outcome: Outcome;
}

/**
 * For a check that needs the records of `list`: "unchecked" with the true reason when it has none the app
 * could use (the list could not be read, or none of its records is usable), else null.
 */
export const needsRecords = (list: ListOutcome<unknown>, envelope: string): Outcome | null =>
  list.unusable ? unchecked(`No record to check: ${list.unusable} (see ${envelope}).`) : null;

/**
 * An outcome reached on the records of `list` (and of the `others` it was compared with): saying so where
 * the kit read them where the app cannot (`list.via`), and "unchecked" where it read any of them only in
 * part (`overWholeList`): "holds" means every page was seen.
 */
export const noted = (
  outcome: Outcome,
  list: ListOutcome<unknown>,
  ...others: Array<ListOutcome<unknown>>
): Outcome => {
  const via = list.via
    ? { ...outcome, detail: `${outcome.detail} (Records read ${list.via}: the app cannot read this list.)` }
    : { ...outcome, detail: `${outcome.detail}${pagesWords(list.paged)}` };
  const cut = [list, ...others].find((read) => read.paged?.cut);
  return overWholeList(via, cut?.paged ?? null);
};

/** Newest first by `createdAt` holds; any other order is tolerated (the app sorts every list). */
export const orderCheck = (records: Dated[], noun: string): Outcome => {
  if (records.length < 2) return unchecked(`Fewer than 2 ${noun} the app can use: no order to see.`);
  const times = records.map((r) => Date.parse(r.createdAt));
  const newestFirst = times.every((t, i) => i === 0 || t <= (times[i - 1] as number));
  if (newestFirst) return holds(`${records.length} ${noun}, newest first.`);
  const oldestFirst = times.every((t, i) => i === 0 || t >= (times[i - 1] as number));
  return tolerated(
    `${records.length} ${noun}, ${oldestFirst ? 'oldest first' : 'in no order by createdAt'}; the app sorts every list newest first itself.`,
  );
};

const newest = (records: Dated[]): number => Math.max(...records.map((r) => Date.parse(r.createdAt)));

/** The limit checks of a list whose full read (`full`, with `limit=100`) gave usable records. */
export const limitChecks = async <S extends ObjectSchema>(
  run: Run,
  path: string,
  query: Query,
  full: ListOutcome<Dated>,
  rule: RecordRule<S>,
  operation: string,
): Promise<NamedOutcome[]> => {
  const noun = `${rule.noun}s`;
  const all = full.records.length;
  const out: NamedOutcome[] = [];
  const plain = readList(await run.probe.get(path, query), rule, operation);
  const n = plain.records.length;
  out.push({
    name: 'limit-default',
    assumption: `Without limit, at most ${LIST_LIMIT_DEFAULT} ${noun} are answered.`,
    outcome: plain.unusable
      ? plain.outcome
      : noted(
          n <= LIST_LIMIT_DEFAULT && (n === LIST_LIMIT_DEFAULT || n === all)
            ? holds(`${n} ${noun} without limit (${all} with limit=${LIST_LIMIT_MAX}).`)
            : tolerated(
                `${n} ${noun} without limit (${all} with limit=${LIST_LIMIT_MAX}); the app always sends limit.`,
              ),
          plain,
          full,
        ),
  });
  const above = await run.probe.get(path, { ...query, limit: LIST_LIMIT_MAX * 10 });
  const clamped = above.status === 200 ? readList(above, rule, operation) : null;
  out.push({
    name: 'limit-clamp',
    assumption: `A limit above ${LIST_LIMIT_MAX} is clamped to ${LIST_LIMIT_MAX}, not refused.`,
    outcome: !clamped
      ? tolerated(
          `limit=${LIST_LIMIT_MAX * 10} answered ${answerText(above)}; the app never asks for more than ${LIST_LIMIT_MAX}.`,
        )
      : clamped.unusable
        ? clamped.outcome
        : noted(
            clamped.records.length <= LIST_LIMIT_MAX
              ? holds(
                  `limit=${LIST_LIMIT_MAX * 10} answered ${clamped.records.length} ${noun}${clamped.records.length < LIST_LIMIT_MAX ? `: there are too few to tell the largest limit honoured` : `: the largest limit honoured is ${LIST_LIMIT_MAX}`}.`,
                )
              : tolerated(
                  `limit=${LIST_LIMIT_MAX * 10} answered ${clamped.records.length} ${noun}: the largest limit honoured is at least ${clamped.records.length}${clamped.records.length >= LIST_LIMIT_MAX * 10 ? '' : ' (all there are)'}; the app reads them all, and the Event dropdown's Load more pages that far.`,
                ),
            clamped,
            full,
          ),
  });
  out.push({
    name: 'limit-newest',
    assumption: `When limit cuts the list, the newest ${noun} (by createdAt) are kept.`,
    outcome: await newestKept(run, path, query, full, rule, operation),
  });
  return out;
};

const newestKept = async <S extends ObjectSchema>(
  run: Run,
  path: string,
  query: Query,
  whole: ListOutcome<Dated>,
  rule: RecordRule<S>,
  operation: string,
): Promise<Outcome> => {
  const noun = `${rule.noun}s`;
  const full = whole.records;
  if (full.length < 2) return unchecked(`Fewer than 2 usable ${noun}: limit=1 cuts nothing.`);
  const one = readList(await run.probe.get(path, { ...query, limit: 1 }), rule, operation);
  if (one.unusable) return one.outcome;
  const first = one.records[0] as Dated | undefined;
  if (!first)
    return differs(
      `limit=1 answered no ${rule.noun} although there are ${full.length}: ${operation} would see nothing.`,
      'Ask the service how `limit` cuts a list: the contract keeps the newest.',
    );
  if (Date.parse(first.createdAt) >= newest(full)) {
    return noted(
      one.records.length === 1
        ? holds(`limit=1 answered the newest of ${full.length} ${noun}.`)
        : tolerated(
            `limit=1 answered ${one.records.length} ${noun}, the newest among them; the app keeps the newest itself.`,
          ),
      one,
      whole,
    );
  }
  return differs(
    `limit=1 answered a ${rule.noun} older than the newest: once an account has more ${noun} than the app asks for (${LIST_LIMIT_MAX}), ${operation} would never see new ones.${one.via ? ` (Records read ${one.via}.)` : ''}`,
    'Ask the service to keep the newest records when limit cuts a list (docs/connect-contract.md §1), or page the list in the app.',
  );
};

/** The checks that need records, each "unchecked" with `why` (the list gave none the app could use). */
export const unreadable = (assumptions: Record<string, string>, why: Outcome): NamedOutcome[] =>
  Object.entries(assumptions).map(([name, assumption]) => ({ name, assumption, outcome: why }));

export const LIST_ASSUMPTIONS = (noun: string): Record<string, string> => ({
  order: 'Order is not guaranteed; the usual order is newest first.',
  'limit-default': `Without limit, at most ${LIST_LIMIT_DEFAULT} ${noun} are answered.`,
  'limit-clamp': `A limit above ${LIST_LIMIT_MAX} is clamped to ${LIST_LIMIT_MAX}, not refused.`,
  'limit-newest': `When limit cuts the list, the newest ${noun} (by createdAt) are kept.`,
});
