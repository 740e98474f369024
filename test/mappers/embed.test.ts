import { mapUrl } from '../../src/connect';
import { embedSample, toEmbedItem } from '../../src/mappers/embed';
import { escapeHtml } from '../../src/mappers/text';

const HOSTILE = `"><script>alert('x')</script>&`;

it('builds the map iframe: full width, min height 720 px, no border, a title, list=1', () => {
  const item = toEmbedItem({
    kind: 'map',
    frontUrl: 'https://front.example.com/',
    eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e',
    planId: 'plan_main',
    frameTitle: 'Floor plan — TechWeek',
    eventSlug: 'techweek',
    eventTitle: 'TechWeek',
    eventIsPublished: true,
  });
  expect(item.html).toBe(
    '<iframe src="https://front.example.com/embed/7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e/map/plan_main?list=1" title="Floor plan — TechWeek" width="100%" style="width:100%;min-height:720px;border:0;" loading="lazy" allowfullscreen></iframe>',
  );
  expect(item).toMatchObject({
    id: 'map:7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e:plan_main',
    embedType: 'map',
    warning: '',
  });
});

it('builds the agenda embed: the data-service div and the async script', () => {
  expect(embedSample.html).toBe(
    '<div data-service="agenda" data-event-slug="techweek-2026" data-theme="light" data-lang="en"></div>\n<script async src="https://embed.example.com/embed/v1/service-embed.js"></script>',
  );
  expect(embedSample.url).toBe('https://embed.example.com/embed/v1/service-embed.js');
});

it('escapes hostile titles, slugs, themes and languages and encodes path segments', () => {
  const map = toEmbedItem({
    kind: 'map',
    frontUrl: 'https://front.example.com',
    eventId: 'e"1',
    planId: `p"><script>x y`,
    frameTitle: HOSTILE,
    eventSlug: null,
    eventTitle: HOSTILE,
    eventIsPublished: false,
  });
  expect(map.html).not.toMatch(/<script|"><|'x'/);
  expect(map.html).toContain(`title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"`);
  expect(map.url).toBe('https://front.example.com/embed/e%221/map/p%22%3E%3Cscript%3Ex%20y?list=1');
  expect(map.warning).toMatch(/draft/);

  const agenda = toEmbedItem({
    kind: 'agenda',
    embedUrl: 'https://embed.example.com',
    eventId: 'e1',
    eventSlug: HOSTILE,
    eventTitle: HOSTILE,
    eventIsPublished: true,
    theme: `dark" onload="x`,
    language: '<en>',
  });
  const [div] = agenda.html.split('\n');
  expect(div).toBe(
    `<div data-service="agenda" data-event-slug="${escapeHtml(HOSTILE)}" data-theme="dark&quot; onload=&quot;x" data-lang="&lt;en&gt;"></div>`,
  );
  expect(agenda.html.match(/<script/g)).toHaveLength(1);
});

it('escapeHtml covers every character that can leave a text or quoted attribute context', () => {
  expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
  expect(mapUrl('https://f.example', 'a b', 'c:d')).toBe('https://f.example/embed/a%20b/map/c%3Ad?list=1');
  for (const planId of ['c/d', '..', '.', 'x?y', 'x#y']) {
    expect(() => mapUrl('https://f.example', 'a b', planId)).toThrow(/cannot be used as an identifier/);
  }
});
