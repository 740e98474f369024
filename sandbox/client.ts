// A tiny client of a running sandbox for tests, the journey and benchmarks: one call of the Connect or the
// simulation API (`/_sandbox/...`) as a tenant, JSON in and out, non-2xx answers thrown with their body.

export async function sandboxCall<T = Record<string, unknown>>(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'X-API-KEY': apiKey,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`sandbox ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}
