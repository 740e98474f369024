/**
 * The Company ID field (of the connection, and of the order steps that may override it) and the company a
 * step works on.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';

export const companyField = (helpText: string) => ({
  key: 'companyId',
  label: 'Company ID',
  type: 'string' as const,
  required: false,
  helpText,
});

/** The company of an account's orders: the step's own value, else the connection's. */
export const companyIdOf = (z: ZObject, bundle: Pick<Bundle, 'authData' | 'inputData'>): string => {
  const fromInput = bundle.inputData?.companyId;
  const companyId = (typeof fromInput === 'string' && fromInput.trim()) || bundle.authData.companyId?.trim();
  if (!companyId) {
    throw new z.errors.Error(
      'No company ID is set. Fill in "Company ID" in this step, or reconnect your account and fill it in there (it is shown in your dashboard under Settings → Company).',
      'CONFIGURATION',
      400,
    );
  }
  return companyId;
};
