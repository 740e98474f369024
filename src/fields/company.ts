/**
 * The company of the order and payment steps. It belongs to the connection (its Company ID field, checked by
 * the connection test): steps have no Company ID of their own, so nobody pastes an ID into a step. An agency
 * with several companies connects one account per company.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';

export const companyField = (helpText: string) => ({
  key: 'companyId',
  label: 'Company ID',
  type: 'string' as const,
  required: false,
  helpText,
});

/**
 * The connection's company. Steps set up while they had a Company ID field of their own keep the value they
 * were saved with, so existing Zaps read the same orders as before; new steps cannot set one.
 */
export const companyIdOf = (z: ZObject, bundle: Pick<Bundle, 'authData' | 'inputData'>): string => {
  const saved = bundle.inputData?.companyId;
  const companyId = (typeof saved === 'string' && saved.trim()) || bundle.authData.companyId?.trim();
  if (!companyId) {
    throw new z.errors.Error(
      'Your connection has no Company ID, which order and payment steps need. Reconnect your account and fill in "Company ID" (shown in your dashboard under Settings → Company, for example cmp_42).',
      'CONFIGURATION',
      400,
    );
  }
  return companyId;
};
