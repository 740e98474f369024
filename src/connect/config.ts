/**
 * Where the service lives. The published app reads its hosts from environment variables that
 * `zapier env:set` sets; an account may override the API host (agencies on a regional or staging host).
 */
import type { ZObject } from 'zapier-platform-core';

const ENV_BASE_URL = 'CONNECT_BASE_URL';
/** `text` without its trailing slashes, in one pass (a `/\/+$/` pattern is quadratic on a run of slashes). */
export const withoutTrailingSlashes = (text: string): string => {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
};

export const ENV_FRONT_URL = 'CONNECT_FRONT_URL';
export const ENV_EMBED_URL = 'CONNECT_EMBED_URL';

export type AuthData = Record<string, string | undefined>;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.test(hostname);

/**
 * Normalises a service URL typed by a person: surrounding spaces and trailing slashes go, a missing scheme
 * becomes https, the host is lower-cased. Only https is accepted, except for loopback hosts (the local
 * sandbox). Returns the problem in words instead of throwing, so callers choose how to report it.
 */
export const normalizeServiceUrl = (raw: string): { url: string } | { problem: string } => {
  const text = raw.trim();
  if (!text) return { problem: 'it is empty' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { problem: 'it is not a valid web address' };
  }
  const loopback = isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    return { problem: 'it must start with https://' };
  }
  if (parsed.username || parsed.password) return { problem: 'it must not contain a user name or password' };
  if (parsed.search || parsed.hash) return { problem: 'it must not contain "?" or "#" parts' };
  const path = withoutTrailingSlashes(parsed.pathname);
  return { url: `${parsed.protocol}//${parsed.host}${path}` };
};

const resolveServiceUrl = (
  z: ZObject,
  override: string | undefined,
  envName: string,
  label: string,
): string => {
  const raw = override?.trim() ? override : process.env[envName];
  if (!raw?.trim()) {
    throw new z.errors.Error(
      `No ${label} is configured. Reconnect your account and fill in "${label}", or ask the integration's publisher to set ${envName}.`,
      'CONFIGURATION',
      400,
    );
  }
  const result = normalizeServiceUrl(raw);
  if ('problem' in result) {
    throw new z.errors.Error(
      `The ${label} "${raw.trim()}" cannot be used: ${result.problem}. Reconnect your account with the address of your Connect API, for example https://api.example.com.`,
      'CONFIGURATION',
      400,
    );
  }
  return result.url;
};

/** The Connect API base URL of an account: its own override, else `CONNECT_BASE_URL`. */
export const resolveBaseUrl = (z: ZObject, authData: AuthData): string =>
  resolveServiceUrl(z, authData.baseUrl, ENV_BASE_URL, 'Connect API URL');

/** The public front application (map iframes): account override, else `CONNECT_FRONT_URL`. */
export const resolveFrontUrl = (z: ZObject, authData: AuthData): string =>
  resolveServiceUrl(z, authData.frontUrl, ENV_FRONT_URL, 'front application URL');

/** The host of the embed script: account override, else `CONNECT_EMBED_URL`. */
export const resolveEmbedUrl = (z: ZObject, authData: AuthData): string =>
  resolveServiceUrl(z, authData.embedUrl, ENV_EMBED_URL, 'embed script URL');

/** Whether `url` points under `baseUrl`: same scheme, host, port and path prefix. */
export const isUnderBaseUrl = (url: string, baseUrl: string): boolean => {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    if (target.origin !== base.origin) return false;
    const prefix = withoutTrailingSlashes(base.pathname);
    return prefix === '' || target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
  } catch {
    return false;
  }
};
