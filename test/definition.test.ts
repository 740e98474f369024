/**
 * Publishing rules of Zapier's integration checks, enforced on every operation of the app definition, so
 * each new operation is held to them automatically (ids from Zapier's integration-checks reference).
 */
import type { Create, Search, Trigger } from 'zapier-platform-core';
import { App } from './support/app';

type Definition = Trigger | Search | Create;

const groups: Record<string, Record<string, Definition>> = {
  trigger: App.triggers,
  search: App.searches,
  create: App.creates,
};
const all = Object.entries(groups).flatMap(([kind, defs]) =>
  Object.values(defs).map((definition) => ({ kind, definition })),
);
const cases = (list: typeof all) => list.map((c) => [`${c.kind} ${c.definition.key}`, c] as const);

/** ID inputs that are free text on purpose, with the reason. */
const FREE_TEXT_ID_INPUTS: Record<string, string> = {
  submissionIdText: 'a typed registration ID to search for',
};

/**
 * Inputs labelled with "ID" that are not dropdowns: searches by an ID typed or mapped on purpose. Any other
 * label asking for an "ID" is flagged by Zapier's checks (the scan reference of a check-in is not one).
 */
const SEARCH_BY_ID_INPUTS: Record<string, string> = {
  orderIdText: 'Find Order by an order or payment ID',
  submissionIdText: 'Find Order and Find Registration by a registration ID',
};

const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);
const isTitleCase = (label: string): boolean =>
  label
    .split(/\s+/)
    .every((word, index) => (index > 0 && SMALL_WORDS.has(word) ? true : !/^[a-z]/.test(word)));

/** The fields given as objects (dynamic fields are functions). */
const staticFields = <F>(fields: ReadonlyArray<F> | undefined) =>
  (fields ?? []).filter(
    (f): f is Exclude<F, (...args: never[]) => unknown> => typeof f === 'object' && f !== null,
  );

const hasPath = (sample: unknown, key: string): boolean => {
  const [head, ...rest] = key.split('[]');
  if (!sample || typeof sample !== 'object' || !head || !(head in sample)) return false;
  if (rest.length === 0) return true;
  const list = (sample as Record<string, unknown>)[head];
  return Array.isArray(list) && list.length > 0 && list.every((item) => hasPath(item, rest.join('[]')));
};

const stringsOf = (value: unknown, out: string[] = []): string[] => {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
};

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

it('has operations to check', () => {
  expect(all.length).toBeGreaterThan(0);
});

describe('authentication', () => {
  const fields = App.authentication?.fields ?? [];
  it('D002: the API key help text links (in Markdown) to where the key is found', () => {
    const apiKey = fields.find((f) => f.key === 'apiKey');
    expect(apiKey?.type).toBe('password');
    expect(apiKey?.helpText).toMatch(/\[[^\]]+\]\(https:\/\/[^)]+\)/);
  });
  it('D003: a connection label identifies the account', () => {
    expect(typeof App.authentication?.connectionLabel).toBe('function');
  });
  it('D018/D011: auth fields have Title Case labels and help that adds information', () => {
    for (const field of fields) {
      expect(isTitleCase(field.label ?? '')).toBe(true);
      if (field.helpText) expect(field.helpText.trim().toLowerCase()).not.toBe(field.label?.toLowerCase());
    }
  });
});

describe.each(cases(all))('%s', (_name, { kind, definition }) => {
  const { display, operation } = definition;

  it('D018: labels are in Title Case', () => {
    expect(isTitleCase(display.label ?? '')).toBe(true);
    for (const field of staticFields(operation.inputFields))
      expect([field.key, isTitleCase(field.label ?? '')]).toEqual([field.key, true]);
  });

  it('D021 and naming: descriptions follow Zapier wording', () => {
    if (kind === 'trigger') expect(display.description).toMatch(/^Triggers when .+\.$/);
    if (kind === 'search') {
      expect(display.label).toMatch(/^Find /);
      expect(display.description).toMatch(/^Finds an? .+\.$/);
    }
    if (kind === 'create') expect(display.description).toMatch(/^[A-Z].+\.$/);
  });

  it('D004: ID inputs are dynamic dropdowns', () => {
    for (const field of staticFields(operation.inputFields)) {
      if (/Id$/.test(field.key) && !(field.key in FREE_TEXT_ID_INPUTS)) {
        expect([field.key, field.dynamic]).toEqual([field.key, expect.stringMatching(/^\w+\.\w+\.\w+$/)]);
      }
    }
  });

  it('D011: help text adds information instead of repeating the label', () => {
    for (const field of staticFields(operation.inputFields)) {
      if (!field.helpText) continue;
      expect(field.helpText.length).toBeGreaterThan(20);
      expect(field.helpText.toLowerCase()).not.toBe((field.label ?? '').toLowerCase());
    }
  });

  it('D007/D008: every URL is HTTPS and every link in help text is a Markdown link', () => {
    const texts = stringsOf({ display, fields: operation.inputFields, sample: operation.sample });
    for (const text of texts) {
      expect(text).not.toMatch(/http:\/\/(?!127\.0\.0\.1|localhost)/);
    }
    for (const field of staticFields(operation.inputFields)) {
      const bare = (field.helpText ?? '').replace(/\[[^\]]*\]\(https:\/\/[^)]+\)/g, '');
      expect([field.key, bare]).toEqual([field.key, expect.not.stringMatching(/https?:\/\//)]);
    }
  });

  if (kind === 'trigger' && 'type' in operation && operation.type === 'hook') {
    it('D006: hook triggers have performList, subscribe and unsubscribe', () => {
      expect(typeof operation.performList).toBe('function');
      expect(typeof operation.performSubscribe).toBe('function');
      expect(typeof operation.performUnsubscribe).toBe('function');
    });
  }

  if (kind === 'create') {
    it('D022: creates have static input fields', () => {
      expect(staticFields(operation.inputFields).length).toBeGreaterThan(0);
    });
  }

  if (!display.hidden) {
    it('D012/D010: has a static sample that contains the primary key', () => {
      expect(operation.sample).toBeDefined();
      const outputs = staticFields(operation.outputFields);
      const primary = outputs.filter((f) => f.primary).map((f) => f.key);
      for (const key of primary.length ? primary : ['id']) expect(operation.sample).toHaveProperty(key);
    });

    it('D023: sample dates are ISO 8601 with a zone', () => {
      // Every value of the sample that holds a date and a time, wherever it sits (a calendar day alone,
      // "2026-12-01", has no time to zone), and every datetime output field.
      const dates = stringsOf(operation.sample).filter((value) => /^\d{4}-\d{2}-\d{2}T/.test(value));
      for (const value of dates) expect(value).toMatch(ISO_WITH_ZONE);
      const datetimeFields = staticFields(operation.outputFields).filter((f) => f.type === 'datetime');
      for (const field of datetimeFields) {
        const value = operation.sample?.[field.key];
        if (value !== null && value !== undefined)
          expect([field.key, value]).toEqual([field.key, expect.stringMatching(ISO_WITH_ZONE)]);
      }
      // A datetime field is declared for each date the sample holds at its top level, so the check above
      // never passes for want of fields to check.
      const topLevelDates = Object.entries(operation.sample ?? {}).filter(
        ([, value]) => typeof value === 'string' && ISO_WITH_ZONE.test(value),
      );
      for (const [key] of topLevelDates) {
        expect([key, datetimeFields.some((f) => f.key === key)]).toEqual([key, true]);
      }
    });

    it('output labels are short Title Case names, one per field, without explanations in parentheses', () => {
      const labels = staticFields(operation.outputFields).map((field) => field.label ?? '');
      for (const label of labels) {
        expect([label, isTitleCase(label)]).toEqual([label, true]);
        expect(label).not.toMatch(/[()]/);
      }
      expect(new Set(labels).size).toBe(labels.length);
    });

    it('D004: an input label that asks for an ID belongs to a dropdown or an ID typed on purpose', () => {
      for (const field of staticFields(operation.inputFields)) {
        if (!/\bIDs?\b/.test(field.label ?? '') || field.dynamic) continue;
        expect([field.key, field.key in SEARCH_BY_ID_INPUTS]).toEqual([field.key, true]);
      }
    });

    it('D024: the sample has every static output field, and every output field has a label', () => {
      for (const field of staticFields(operation.outputFields)) {
        expect([field.key, hasPath(operation.sample, field.key)]).toEqual([field.key, true]);
        expect(field.label?.length).toBeGreaterThan(0);
      }
    });
  }
});
