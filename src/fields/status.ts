/** The status filter of polling triggers: a dropdown whose first choice is "any status", and its value. */
import type { Bundle } from 'zapier-platform-core';

export const ANY_STATUS = 'any';

export const statusField = (options: {
  label: string;
  choices: Array<{ value: string; label: string }>;
  helpText: string;
}) => ({
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

/** The chosen status (lower case), or `null` for any status. */
export const chosenStatus = (bundle: Pick<Bundle, 'inputData'>): string | null => {
  const value = bundle.inputData?.status;
  const status = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return status && status !== ANY_STATUS ? status : null;
};

/** Whether a record has the chosen status (always, for any status). */
export const hasStatus =
  (status: string | null) =>
  (record: { status: string }): boolean =>
    status === null || record.status.toLowerCase() === status;
