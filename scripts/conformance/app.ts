/**
 * The app's own reading of answers that are not lists (src/connect): its error translation
 * (`throwForAnswer`, `parseErrorBody`), and the way it reads one object (JSON, then the contract schema,
 * with its own messages for each failure). The kit calls these, never a copy of them, so whatever the app is
 * taught about the wire, the kit reads the same way.
 */
import { type ZObject, errors } from 'zapier-platform-core';
import type { ZodType } from 'zod';
import {
  type RawAnswer,
  type ErrorReading,
  appErrorCode,
  errorMeaning,
  errorText,
  parseErrorBody,
  throwBadShape,
  throwForAnswer,
  throwNotJson,
} from '../../src/connect/errors';
import { parseJsonSafely } from '../../src/connect/json';
import { readerOf } from '../../src/connect/wire';
import type { ErrorBody } from '../../src/connect/schemas';
import type { Answer } from './http';

/** What the app's translation needs of Zapier's `z`: its error classes. */
const Z = { errors } as unknown as ZObject;

/** The answer as the app's translation is given it: its body blanked of the key, as in the app. */
const rawAnswer = (answer: Answer): RawAnswer => ({
  status: answer.status,
  content: answer.blanked(),
  contentType: answer.headers.get('content-type') ?? '',
  retryAfter: answer.headers.get('retry-after'),
});

export interface AppError {
  /** What the app reads the answer to mean (`not_found`; `reconnect` for a refused key). */
  meaning: ErrorReading | null;
  /** The code the app acts on (`NOT_FOUND`; `HTTP_404` when it found none in the body). */
  code: string | undefined;
  /** The `error` member of the body as the app reads it, when it reads one. */
  body: ErrorBody['error'] | undefined;
  /** What a user of the app would read. */
  message: string;
  /** The app asks the user to reconnect the account (a 401), whatever the body. */
  reconnect: boolean;
}

/** A non-2xx answer as the app translates it: the error it would throw for `what` ("the events list"). */
export const appError = (answer: Answer, what: string): AppError => {
  const raw = rawAnswer(answer);
  const body = parseErrorBody(raw.content);
  try {
    throwForAnswer(Z, raw, what);
  } catch (error) {
    const reconnect = error instanceof errors.ExpiredAuthError;
    const meaning = reconnect ? 'reconnect' : errorMeaning(error);
    return { meaning, code: appErrorCode(error) ?? body?.code, body, message: errorText(error), reconnect };
  }
  throw new Error('throwForAnswer returned');
};

/** `json`: the answer under the app's names (src/connect's reader), whether or not the schema accepts it. */
export type AppObject<T> =
  | { ok: true; value: T; json: unknown }
  | { ok: false; message: string; json: unknown };

/**
 * A 2xx answer read as the app reads one object (`connectRequest`): JSON, then `schema`; when it fails, the
 * message the app would give for `what`.
 */
export const appObject = <T>(answer: Answer, schema: ZodType<T>, what: string): AppObject<T> => {
  const raw = rawAnswer(answer);
  let read: unknown = answer.json;
  try {
    const json = parseJsonSafely(answer.text);
    if (!json.ok) return throwNotJson(Z, raw, what);
    read = readerOf(schema)(json.value);
    const parsed = schema.safeParse(read);
    if (!parsed.success) return throwBadShape(Z, answer.status, parsed.error, what);
    return { ok: true, value: parsed.data, json: read };
  } catch (error) {
    return { ok: false, message: errorText(error), json: read };
  }
};
