/**
 * Secrets never leave the app in words. `redactor` builds a function that replaces every secret of a
 * connection (the API key, the account-level webhook secret, a subscription's secrets) in any text the app
 * produces: error messages, excerpts of answers, log lines. A server that echoes request headers back (in an
 * HTML page, a JSON `error.message`, a proxy's error page) gets its echo blanked before the text is cut to an
 * excerpt, so not even a prefix of a secret survives.
 */
import type { Bundle } from 'zapier-platform-core';

export const REDACTED = '[redacted]';

/** Shorter values are not secrets worth the name, and blanking them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 4;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A hexadecimal number as a pattern that matches it in either case, with optional leading zeros. */
const hexPattern = (code: number, width = 0): string =>
  `${width ? '' : '0*'}${code
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`)}`;

const NAMED_ENTITIES: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

/**
 * Every spelling of one character an echo may use: as is; JSON's `\uXXXX` (either case) and `\/`, `\"`,
 * `\\`; percent-encoding (either case, `+` for a space); numeric HTML entities (decimal or hex) and the
 * named ones. An echo may mix them within one secret (`sk\u002Bkey`, `sk%2bkey`, `sk&#43;key`).
 */
const characterPattern = (char: string): string => {
  const code = char.charCodeAt(0);
  const forms = [
    escapeRegExp(char),
    `\\\\u${hexPattern(code, 4)}`,
    `&#${code};?`,
    `&#0+${code};?`,
    `&#[xX]${hexPattern(code)};?`,
  ];
  if (code < 0x80) forms.push(`%${hexPattern(code, 2)}`);
  if (char === ' ') forms.push('\\+');
  if (char === '/' || char === '"' || char === '\\') forms.push(`\\\\${escapeRegExp(char)}`);
  const named = NAMED_ENTITIES[char];
  if (named) forms.push(`&${named};`);
  return `(?:${forms.join('|')})`;
};

/**
 * The pattern of `secret` in any of its spellings: each character as is or escaped (see `characterPattern`);
 * characters outside the Basic Multilingual Plane are matched as they are, or percent-encoded as UTF-8.
 */
const secretPattern = (secret: string): string =>
  [...secret]
    .map((char) =>
      char.length === 1 && char.charCodeAt(0) < 0x80
        ? characterPattern(char)
        : `(?:${escapeRegExp(char)}|${escapeRegExp(encodeURIComponent(char))}|${[...char].map(characterPattern).join('')})`,
    )
    .join('');

export type Redact = (text: string) => string;

/**
 * A function that blanks each of `secrets` in a text, in whatever spelling an echo uses (JSON, URL, HTML
 * escapes, mixed within one secret).
 */
export const redactor = (secrets: ReadonlyArray<string | null | undefined>): Redact => {
  const values = new Set<string>();
  for (const secret of secrets) {
    const value = typeof secret === 'string' ? secret.trim() : '';
    if (value.length >= MIN_SECRET_LENGTH) values.add(value);
  }
  if (values.size === 0) return (text) => text;
  // Longest first, so that a secret containing another one is blanked whole.
  const pattern = new RegExp(
    [...values]
      .sort((a, b) => b.length - a.length)
      .map(secretPattern)
      .join('|'),
    'g',
  );
  return (text) => (typeof text === 'string' ? text.replace(pattern, REDACTED) : text);
};

const stringValue = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The secrets a bundle carries: the API key and webhook secret of the connection, and the secret a hook
 * subscription was given when it was created.
 */
export const bundleSecrets = (bundle: Partial<Pick<Bundle, 'authData' | 'subscribeData'>>): string[] => {
  const auth = (bundle.authData ?? {}) as Record<string, unknown>;
  const subscription: unknown = bundle.subscribeData;
  const own =
    subscription && typeof subscription === 'object'
      ? stringValue((subscription as Record<string, unknown>).secret)
      : undefined;
  return [stringValue(auth.apiKey), stringValue(auth.webhookSecret), own].filter(
    (s): s is string => s !== undefined,
  );
};

/** The redactor of everything secret in a bundle, plus `extra` secrets learned since (a rotated secret). */
export const bundleRedactor = (
  bundle: Partial<Pick<Bundle, 'authData' | 'subscribeData'>>,
  extra: ReadonlyArray<string | null | undefined> = [],
): Redact => redactor([...bundleSecrets(bundle), ...extra]);

/** Blanks secrets in an error's message (and stack) in place, and returns it. */
export const redactError = <E>(error: E, redact: Redact): E => {
  if (error instanceof Error || (error && typeof error === 'object' && 'message' in error)) {
    const e = error as { message?: unknown; stack?: unknown };
    if (typeof e.message === 'string') e.message = redact(e.message);
    if (typeof e.stack === 'string') e.stack = redact(e.stack);
  }
  return error;
};
