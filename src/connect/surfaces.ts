/**
 * The interface document's two browser surfaces, which visitors' browsers load (no key, no request from the
 * app): the floor-plan map page of the front application and the embed script. Path segments are validated
 * and percent-encoded here, as for requests (`pathSegment`): a plan `..` never makes a frame of `/map/..`.
 */
import { withoutTrailingSlashes } from './config';
import { pathSegment as seg } from './paths';

/** `{front_url}/embed/:eventUuid/map/:planId?list=1` */
export const mapUrl = (frontUrl: string, eventId: string, planId: string): string =>
  `${withoutTrailingSlashes(frontUrl)}/embed/${seg(eventId)}/map/${seg(planId)}?list=1`;

/** `{embed_url}/embed/v1/service-embed.js` */
export const embedScriptUrl = (embedUrl: string): string =>
  `${withoutTrailingSlashes(embedUrl)}/embed/v1/service-embed.js`;

/**
 * The themes of the agenda embed script (`data-theme`, read case-insensitively). `auto` follows the visitor's
 * light or dark setting; the script shows any other value in the light theme.
 */
export const AGENDA_THEMES = {
  light: 'Light',
  dark: 'Dark',
  auto: "Auto (follows the visitor's light or dark setting)",
} as const;
export type AgendaTheme = keyof typeof AGENDA_THEMES;

/**
 * The languages of the agenda embed script's own words (`data-lang`, by the code before any `-`: `fr-CA`
 * shows French words, its dates formatted for Canada). The script shows English words for any other value.
 */
export const AGENDA_LANGUAGES = { en: 'English', fr: 'French', de: 'German', es: 'Spanish' } as const;

/** Whether the embed script shows `theme` as asked (otherwise it shows the light theme). */
export const isAgendaTheme = (theme: string): boolean =>
  Object.hasOwn(AGENDA_THEMES, theme.trim().toLowerCase());

/** Whether the embed script shows its words in `language` (a language tag such as `fr` or `fr-CA`). */
export const isAgendaLanguage = (language: string): boolean =>
  /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(language.trim()) &&
  Object.hasOwn(AGENDA_LANGUAGES, language.trim().toLowerCase().split('-')[0] as string);
