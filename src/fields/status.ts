/**
 * The status filter of polling triggers: a dropdown whose first choice is "any status", and its value. A
 * value typed or mapped by hand must be one of the choices (by value or by label, in any case): anything else
 * would match no record, and the Zap would wait forever without a word.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';

export const ANY_STATUS = 'any';

export interface StatusField {
  key: 'status';
  label: string;
  type: 'string';
  required: false;
  default: string;
  choices: Array<{ value: string; label: string; sample: string }>;
  helpText: string;
}

export const statusField = (options: {
  label: string;
  choices: Array<{ value: string; label: string }>;
  helpText: string;
}): StatusField => ({
  key: 'status',
  label: options.label,
  type: 'string' as const,
  required: false,
  default: ANY_STATUS,
  choices: [{ value: ANY_STATUS, label: 'Any status' }, ...options.choices].map((choice) => ({
    ...choice,
    sample: choice.value,
  })),
  helpText: options.helpText,
});

/** The chosen status (lower case), or `null` for any status; a value that is not a choice is refused. */
export const chosenStatus = (
  z: ZObject,
  bundle: Pick<Bundle, 'inputData'>,
  field: StatusField,
): string | null => {
  const value = bundle.inputData?.status;
  const typed = typeof value === 'string' ? value.trim() : '';
  if (!typed) return null;
  const wanted = typed.toLowerCase();
  const choice = field.choices.find(
    (c) => c.value.toLowerCase() === wanted || c.label.toLowerCase() === wanted,
  );
  if (!choice) {
    const valid = field.choices.map((c) => `${c.label} (${c.value})`).join(', ');
    throw new z.errors.Error(
      `"${typed.slice(0, 40)}" is not one of the choices of ${field.label}, so no record would ever match it. Choose one in the ${field.label} dropdown: ${valid}.`,
      'INVALID_INPUT',
      400,
    );
  }
  return choice.value === ANY_STATUS ? null : choice.value;
};

/** Whether a record has the chosen status (always, for any status). */
export const hasStatus =
  (status: string | null) =>
  (record: { status: string }): boolean =>
    status === null || record.status.toLowerCase() === status;
