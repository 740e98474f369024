/**
 * API-key authentication (custom). The test lists one event and, when a Company ID is given, reads one order
 * of that company: a wrong key, a wrong URL, an unknown company and a missing entitlement each end in their
 * own message. Nothing retries a connection test on its own, so a temporary failure asks the user to try
 * again. The connection label tells accounts apart (company, else the newest event) without a secret.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { listEvents, listOrders, notConnectApiError, notConnectApiReason, resolveBaseUrl } from './connect';
import { accountFingerprint } from './memory';
import { companyField } from './fields/company';
import { HELP_API_KEYS_URL, HELP_WEBHOOKS_URL } from './fields/links';

interface AuthTestResult {
  host: string;
  companyId: string | null;
  latestEventTitle: string | null;
  /** A short one-way fingerprint of the key and host, for the label of an account with no event yet. */
  account: string;
}

const test = async (z: ZObject, bundle: Bundle): Promise<AuthTestResult> => {
  const baseUrl = resolveBaseUrl(z, bundle.authData);
  const host = new URL(baseUrl).host;
  try {
    const events = await listEvents(z, bundle, 1, 'later');
    const companyId = bundle.authData.companyId?.trim() || null;
    if (companyId) await listOrders(z, bundle, { companyId, limit: 1, retry: 'later' });
    return {
      host,
      companyId,
      latestEventTitle: events[0]?.title ?? null,
      account: accountFingerprint(bundle.authData).slice(0, 6),
    };
  } catch (error) {
    const reason = notConnectApiReason(error);
    if (reason) throw notConnectApiError(z, baseUrl, reason);
    throw error;
  }
};

const LABEL_TITLE_MAX = 60;

/**
 * `Company cmp_42 on api.example.com`; without a company, the organizer of the newest event
 * (`Organizer of "TechWeek 2026" on …`), else the account fingerprint. Never a secret.
 */
const connectionLabel = async (_z: ZObject, bundle: Bundle<Partial<AuthTestResult>>): Promise<string> => {
  const { host, companyId, latestEventTitle, account } = bundle.inputData;
  const title = latestEventTitle?.trim();
  const shortTitle = title && title.length > LABEL_TITLE_MAX ? `${title.slice(0, LABEL_TITLE_MAX)}…` : title;
  const who = companyId
    ? `Company ${companyId}`
    : shortTitle
      ? `Organizer of "${shortTitle}"`
      : `Organizer account ${account ?? ''} (no events yet)`.replace('  ', ' ');
  return host ? `${who} on ${host}` : who;
};

export default {
  type: 'custom' as const,
  fields: [
    {
      key: 'apiKey',
      label: 'API Key',
      type: 'password' as const,
      required: true,
      helpText: `The organizer API key, created by an account owner in the dashboard under **Settings → Integrations → API keys**. [How to create a key](${HELP_API_KEYS_URL}). It stays on Zapier's servers and is never shown in Zap data.`,
    },
    companyField(
      'Needed for order and payment steps: the company identifier shown in the dashboard under **Settings → Company** (for example `cmp_42`). The connection test checks it. For several companies, connect one account per company: its name tells them apart.',
    ),
    {
      key: 'webhookSecret',
      label: 'Webhook Signing Secret',
      type: 'password' as const,
      required: false,
      helpText: `Optional. The account-level signing secret from **Settings → Integrations → Webhooks** ([about webhook signatures](${HELP_WEBHOOKS_URL})). Instant triggers use it only when the service gives a subscription no secret of its own; deliveries that fail the signature check are dropped.`,
    },
    {
      key: 'baseUrl',
      label: 'Connect API URL',
      type: 'string' as const,
      required: false,
      helpText:
        'Leave empty to use the service. Agencies on a dedicated or regional host enter its address (for example api.eu.example.com). Only https addresses are accepted.',
    },
    {
      key: 'frontUrl',
      label: 'Public Front Application URL',
      type: 'string' as const,
      required: false,
      helpText:
        'Optional, for embed codes: the host of your public event pages when it is not the default one.',
    },
    {
      key: 'embedUrl',
      label: 'Embed Script URL',
      type: 'string' as const,
      required: false,
      helpText:
        'Optional, for embed codes: the host serving `embed/v1/service-embed.js` when it is not the default one.',
    },
  ],
  test,
  connectionLabel,
};
