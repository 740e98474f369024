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
