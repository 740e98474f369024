/**
 * Links shown to users in help texts. They point at the service's public help centre; a publisher with
 * other addresses changes them here only.
 */
export const HELP_API_KEYS_URL = 'https://help.eventplatform.example.com/connect/api-keys';
export const HELP_WEBHOOKS_URL = 'https://help.eventplatform.example.com/connect/webhooks';
