/**
 * Generate Embed Code: the HTML an agency pastes into its own CMS for an event, either the floor-plan map
 * iframe or the agenda embed. Nothing is changed in the service; the event's title and slug come from the
 * cached events list or, for an older event of the account, its public page or the public catalog
 * (`requireAccountEvent`), and a map's floor plan is checked to be published (cached 5 minutes) so that no
 * embed points at a plan that does not exist. Hosts come from the environment or the connection's overrides (src/connect/config.ts).
 */
import { type Bundle, type ZObject, defineCreate } from 'zapier-platform-core';
import { AGENDA_LANGUAGES, AGENDA_THEMES, isNotFound, resolveEmbedUrl, resolveFrontUrl } from '../connect';
import { type AccountEvent, isOlderDraft, noRecordWhy, requireAccountEvent } from '../account/events';
import { cachedFloorPlan, cachedFloorPlans } from '../account/plansAndAgendas';
import { eventField, requiredEventInput } from '../fields/event';
import { floorPlanField, planIdInput } from '../fields/floorPlan';
import { accepts } from '../fields/accepts';
import { textInput } from '../fields/read';
import { embedOutputFields, embedSample, toEmbedItem } from '../mappers/embed';
import { sibling } from '../siblings';

const invalid = (z: ZObject, message: string): never => {
  throw new z.errors.Error(message, 'INVALID_INPUT', 400);
};

const perform = async (z: ZObject, bundle: Bundle) => {
  const kind = textInput(bundle, 'embedType').toLowerCase() || 'agenda';
  if (kind !== 'map' && kind !== 'agenda') {
    invalid(z, `"What to Embed" must be Floor Plan Map or Agenda, not "${kind.slice(0, 40)}".`);
  }
  const given = requiredEventInput(z, bundle);

  if (kind === 'map') {
    const planId = planIdInput(z, bundle);
    if (!planId) invalid(z, 'Choose the floor plan to show in the map (Floor Plan field).');
    const frontUrl = resolveFrontUrl(z, bundle.authData);
    // The plan's keyed read says whether the account holds an event given by ID; its record only adds words.
    const found: AccountEvent | null = await requireAccountEvent(z, bundle, given).catch((error) => {
      if (isNotFound(error) || !('id' in given)) throw error;
      return null;
    });
    const eventId = found?.id ?? ('id' in given ? given.id : '');
    const event = found?.event ?? null;
    const plan = await cachedFloorPlan(z, bundle, eventId, planId);
    if (!plan.value) {
      // "Not found" names the plan or the event: the event's list of plans tells (an unknown event throws).
      await cachedFloorPlans(z, bundle, eventId);
      const where = event ? `the event "${event.title}"` : 'the chosen event';
      invalid(
        z,
        `The floor plan "${planId.slice(0, 80)}" is not a published floor plan of ${where}, so its map would show nothing. Choose a plan in the Floor Plan field (it lists the published plans of the event), or publish the plan in the dashboard first.`,
      );
    }
    return toEmbedItem({
      kind: 'map',
      frontUrl,
      eventId,
      planId,
      frameTitle:
        textInput(bundle, 'frameTitle') || (event ? `Floor plan — ${event.title}` : 'Event floor plan'),
      eventSlug: event?.slug ?? null,
      eventTitle: event?.title ?? null,
      eventIsPublished: event ? event.status === 'published' : null,
    });
  }

  const embedUrl = resolveEmbedUrl(z, bundle.authData);
  const found = await requireAccountEvent(z, bundle, given, undefined, 'publish');
  const event = found.event;
  if (!event) {
    // A draft's slug shows nowhere the app can read: publishing it is what works. A search that stopped
    // before reaching the event is what a slug or link skips.
    const next = isOlderDraft(found)
      ? 'Publish the event in the dashboard, then run this step again.'
      : "Give the event's slug or public page link in the Event field instead: it is read at once.";
    invalid(
      z,
      `The agenda embed needs the event's slug, and it could not be read for event ${found.id}: ${noRecordWhy(found)}. ${next}`,
    );
    return [];
  }
  return toEmbedItem({
    kind: 'agenda',
    embedUrl,
    eventId: event.id,
    eventSlug: event.slug,
    eventTitle: event.title,
    eventIsPublished: event.status === 'published',
    theme: textInput(bundle, 'theme') || 'light',
    language: textInput(bundle, 'language') || 'en',
  });
};

const embedTypeField = {
  key: 'embedType',
  label: 'What to Embed',
  type: 'string' as const,
  required: true,
  default: 'agenda',
  altersDynamicFields: true,
  choices: [
    { value: 'agenda', label: 'Agenda (script embed)', sample: 'agenda' },
    { value: 'map', label: 'Floor Plan Map (iframe)', sample: 'map' },
  ],
  helpText:
    'Agenda: a block that the embed script fills with the event agenda. Floor Plan Map: a full-width frame with the map and a booth list beside it. The fields below change with this choice.',
};

const planField = floorPlanField("Needed for **Floor Plan Map**: one of the event's published floor plans.");

const frameTitleField = {
  key: 'frameTitle',
  label: 'Frame Title',
  type: 'string' as const,
  required: false,
  helpText:
    'For **Floor Plan Map**: the title screen readers announce for the frame. Empty: "Floor plan — " and the event title.',
};

// The embed script shows any theme or language; one it does not know is kept, and Warning says so.
const themeField = {
  key: 'theme',
  label: 'Theme',
  type: 'string' as const,
  required: false,
  default: 'light',
  choices: { ...AGENDA_THEMES },
  helpText:
    'For **Agenda**: the colors of the agenda block. The embed script knows Light, Dark and Auto; with any other value it shows Light, and the step says so in **Warning**.',
  meta: accepts({ otherValues: 'kept' }),
};

const languageField = {
  key: 'language',
  label: 'Language',
  type: 'string' as const,
  required: false,
  default: 'en',
  choices: { ...AGENDA_LANGUAGES },
  helpText:
    "For **Agenda**: the language of the agenda block's words and dates. The embed script knows English (`en`), French (`fr`), German (`de`) and Spanish (`es`), also with a region such as `fr-CA`; with any other value (a language name such as French included) it shows English words, and the step says so in **Warning**.",
  meta: accepts({ otherValues: 'kept' }),
};

/**
 * The fields of what is embedded: the map's floor plan (then required) and frame title, or the agenda's theme
 * and language; both sets for a kind mapped from an earlier step (unknown while the Zap is edited).
 */
const embedKindFields = (bundle: Pick<Bundle, 'inputData'>) => {
  const kind = textInput(bundle, embedTypeField.key).toLowerCase() || embedTypeField.default;
  if (kind === 'map') return [{ ...planField, required: true }, frameTitleField];
  if (kind === 'agenda') return [themeField, languageField];
  return [planField, frameTitleField, themeField, languageField];
};

const definition = defineCreate({
  key: 'generate_embed_code',
  noun: 'Embed Code',
  display: {
    label: 'Generate Embed Code',
    description:
      "Generates the HTML to show an event's floor-plan map or agenda on your own website or CMS, and returns it with its script or frame URL. Nothing is changed in the service, and running it again gives the same code. For the data itself, use **Find Event Agenda** or **Find Floor Plan**.",
  },
  operation: {
    perform,
    inputFields: [
      embedTypeField,
      eventField({
        required: true,
        takes: 'reference',
        helpText:
          'The event whose map or agenda to embed: any of your events (its search finds older ones), or its event ID, slug or public page link mapped from an earlier step. Visitors see the embed only once the event is published.',
      }),
      (_z: ZObject, bundle: Bundle) => embedKindFields(bundle),
    ],
    sample: embedSample,
    outputFields: embedOutputFields,
  },
});

export default sibling('event-pages', definition);
