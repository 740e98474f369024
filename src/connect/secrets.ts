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

const htmlEscaped = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every spelling of `secret` an echo may use: as is, in JSON, URL-encoded, HTML-escaped. */
const spellings = (secret: string): string[] => [
  secret,
  JSON.stringify(secret).slice(1, -1),
  encodeURIComponent(secret),
  htmlEscaped(secret),
];

export type Redact = (text: string) => string;

/** A function that blanks each of `secrets` (and its escaped spellings) in a text. */
export const redactor = (secrets: ReadonlyArray<string | null | undefined>): Redact => {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const value = typeof secret === 'string' ? secret.trim() : '';
    if (value.length >= MIN_SECRET_LENGTH) for (const form of spellings(value)) forms.add(form);
  }
  if (forms.size === 0) return (text) => text;
  // Longest first, so that a secret containing another one is blanked whole.
  const pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
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
