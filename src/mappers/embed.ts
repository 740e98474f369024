/**
 * The one mapper of the Embed code noun: the HTML of the interface document's two browser surfaces, for
 * Generate Embed Code and its sample. Every value placed into HTML is escaped (text and attribute contexts;
 * the URLs come from src/connect/surfaces.ts); no key or token is ever part of it (these surfaces need none).
 */
import type { PlainOutputField } from 'zapier-platform-core';
import {
  AGENDA_LANGUAGES,
  AGENDA_THEMES,
  embedScriptUrl,
  isAgendaLanguage,
  isAgendaTheme,
  mapUrl,
} from '../connect';
import { escapeHtml } from './text';
import { staticSample } from './sample';

const MAP_MIN_HEIGHT_PX = 720;

interface Common {
  eventId: string;
  eventSlug: string | null;
  eventTitle: string | null;
  eventIsPublished: boolean | null;
}

export type EmbedSpec =
  | (Common & { kind: 'map'; frontUrl: string; planId: string; frameTitle: string })
  | (Common & { kind: 'agenda'; embedUrl: string; eventSlug: string; theme: string; language: string });

export type EmbedItem = {
  id: string;
  embedType: 'map' | 'agenda';
  html: string;
  url: string;
  eventId: string;
  eventSlug: string | null;
  eventTitle: string | null;
  planId: string | null;
  theme: string | null;
  language: string | null;
  warning: string;
};

const quoted = (value: string) => `"${value.trim().slice(0, 40)}"`;

/** What visitors will not see as the step asked: a draft event, a theme or language the script lacks. */
const warningOf = (spec: EmbedSpec): string => {
  const warnings: string[] = [];
  if (spec.eventIsPublished === false) {
    warnings.push('This event is a draft: the embed shows nothing to visitors until the event is published.');
  }
  if (spec.kind === 'agenda' && !isAgendaTheme(spec.theme)) {
    warnings.push(
      `The embed script has no theme ${quoted(spec.theme)} (it has ${Object.keys(AGENDA_THEMES).join(', ')}): the agenda shows in the light theme.`,
    );
  }
  if (spec.kind === 'agenda' && !isAgendaLanguage(spec.language)) {
    warnings.push(
      `The embed script has no language ${quoted(spec.language)} (it has ${Object.keys(AGENDA_LANGUAGES).join(', ')}, also with a region such as fr-CA): the agenda shows its words in English. Use a language code, such as fr for French.`,
    );
  }
  return warnings.join(' ');
};

export const toEmbedItem = (spec: EmbedSpec): EmbedItem => {
  const common = {
    eventId: spec.eventId,
    eventSlug: spec.eventSlug,
    eventTitle: spec.eventTitle,
    warning: warningOf(spec),
  };
  if (spec.kind === 'map') {
    const url = mapUrl(spec.frontUrl, spec.eventId, spec.planId);
    const html =
      `<iframe src="${escapeHtml(url)}" title="${escapeHtml(spec.frameTitle)}" width="100%" ` +
      `style="width:100%;min-height:${MAP_MIN_HEIGHT_PX}px;border:0;" loading="lazy" allowfullscreen></iframe>`;
    return {
      ...common,
      id: `map:${spec.eventId}:${spec.planId}`,
      embedType: 'map',
      html,
      url,
      planId: spec.planId,
      theme: null,
      language: null,
    };
  }
  const url = embedScriptUrl(spec.embedUrl);
  const html =
    `<div data-service="agenda" data-event-slug="${escapeHtml(spec.eventSlug)}" ` +
    `data-theme="${escapeHtml(spec.theme)}" data-lang="${escapeHtml(spec.language)}"></div>\n` +
    `<script async src="${escapeHtml(url)}"></script>`;
  return {
    ...common,
    id: `agenda:${spec.eventId}`,
    embedType: 'agenda',
    html,
    url,
    planId: null,
    theme: spec.theme,
    language: spec.language,
  };
};

export const embedSample: EmbedItem = staticSample('embed', () =>
  toEmbedItem({
    kind: 'agenda',
    embedUrl: 'https://embed.example.com',
    eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
    eventSlug: 'techweek-2026',
    eventTitle: 'TechWeek 2026',
    eventIsPublished: true,
    theme: 'light',
    language: 'en',
  }),
);

export const embedOutputFields: PlainOutputField[] = [
  { key: 'id', label: 'ID', type: 'string', primary: true },
  { key: 'embedType', label: 'Embed Type', type: 'string' },
  { key: 'html', label: 'HTML Embed Code', type: 'string' },
  { key: 'url', label: 'Map Frame URL or Embed Script URL', type: 'string' },
  { key: 'eventId', label: 'Event ID', type: 'string' },
  { key: 'eventSlug', label: 'Event Slug', type: 'string' },
  { key: 'eventTitle', label: 'Event Title', type: 'string' },
  { key: 'planId', label: 'Floor Plan ID', type: 'string' },
  { key: 'theme', label: 'Theme', type: 'string' },
  { key: 'language', label: 'Language', type: 'string' },
  { key: 'warning', label: 'Warning', type: 'string' },
];
