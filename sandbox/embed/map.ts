// The front application's floor-plan map page (`{front_url}/embed/:eventUuid/map/:planId`), as the service
// serves it inside the organizer's iframe: the published plan drawn to scale, booths coloured by status,
// and with `list=1` the booth list beside it. Everything fits the frame's 720 px minimum height.

import type { BoothStatus, EventRecord, FloorPlanSnapshot } from '../types';

export const MAP_FRAME_HEIGHT_PX = 720;

export const BOOTH_COLOURS: Record<BoothStatus, { fill: string; label: string }> = {
  available: { fill: '#2f9e5b', label: 'Available' },
  held: { fill: '#e0a100', label: 'Held' },
  booked: { fill: '#c8453b', label: 'Booked' },
};

const STATUSES: BoothStatus[] = ['available', 'held', 'booked'];

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );

const STYLE = `
*{box-sizing:border-box}
html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#fff}
body{display:flex;flex-direction:column;height:100vh;max-height:${MAP_FRAME_HEIGHT_PX}px;min-height:360px;padding:12px;gap:10px}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 16px}
h1{font-size:16px;margin:0}
.meta{color:#5b6475;font-size:12px}
.legend{display:flex;gap:12px;margin-left:auto;font-size:12px}
.dot{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
main{flex:1;display:flex;gap:12px;min-height:0}
.map{flex:1;min-width:0;min-height:0;border:1px solid #d8dce4;border-radius:6px;background:#f7f8fa}
.map svg{width:100%;height:100%;display:block}
.booth text{font-size:var(--fs);fill:#fff;font-weight:600;pointer-events:none}
.list{width:240px;flex:none;overflow:auto;border:1px solid #d8dce4;border-radius:6px}
.list table{width:100%;border-collapse:collapse;font-size:13px}
.list th,.list td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f4}
.list th{position:sticky;top:0;background:#fff}
.empty{margin:auto;color:#5b6475}
@media (max-width:600px){main{flex-direction:column}.list{width:auto;height:40%}}
`;

/** The map page of one published snapshot. */
export function mapPage(event: EventRecord, plan: FloorPlanSnapshot, withList: boolean): string {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<BoothStatus, number>;
  for (const b of plan.booths) counts[b.status]++;
  const booths = plan.booths
    .map((b) => {
      const colour = BOOTH_COLOURS[b.status];
      const fs = Math.max(6, Math.min(b.h * 0.45, (b.w / Math.max(2, b.label.length)) * 1.5));
      return (
        `<g class="booth" data-booth="${escapeHtml(b.id)}" data-status="${b.status}" style="--fs:${fs.toFixed(1)}px">` +
        `<title>${escapeHtml(b.label)}: ${colour.label.toLowerCase()}</title>` +
        `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="2" fill="${colour.fill}" stroke="#fff" stroke-width="1"/>` +
        `<text x="${b.x + b.w / 2}" y="${b.y + b.h / 2}" text-anchor="middle" dominant-baseline="central">${escapeHtml(b.label)}</text>` +
        `</g>`
      );
    })
    .join('');
  const svg =
    `<svg viewBox="0 0 ${plan.width} ${plan.height}" preserveAspectRatio="xMidYMid meet" role="img" ` +
    `aria-label="${escapeHtml(`${plan.name}: ${plan.booths.length} booths`)}">` +
    `<rect x="0" y="0" width="${plan.width}" height="${plan.height}" fill="#fff" stroke="#9aa3b2" stroke-width="2"/>` +
    booths +
    `</svg>`;
  const legend = STATUSES.map(
    (s) =>
      `<span data-count="${s}"><span class="dot" style="background:${BOOTH_COLOURS[s].fill}"></span>` +
      `${BOOTH_COLOURS[s].label} ${counts[s]}</span>`,
  ).join('');
  const list = withList
    ? `<aside class="list" aria-label="Booths"><table><thead><tr><th>Booth</th><th>Status</th><th>Size</th></tr></thead><tbody>` +
      [...plan.booths]
        .sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }))
        .map(
          (b) =>
            `<tr data-booth="${escapeHtml(b.id)}" data-status="${b.status}"><td>${escapeHtml(b.label)}</td>` +
            `<td><span class="dot" style="background:${BOOTH_COLOURS[b.status].fill}"></span>${BOOTH_COLOURS[b.status].label}</td>` +
            `<td>${b.w} × ${b.h}</td></tr>`,
        )
        .join('') +
      `</tbody></table></aside>`
    : '';
  const title = `${plan.name} — ${event.title}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body>` +
    `<header><h1>${escapeHtml(event.title)}</h1>` +
    `<span class="meta">${escapeHtml(plan.name)} · version ${plan.version} · ${plan.booths.length} booths</span>` +
    `<span class="legend">${legend}</span></header>` +
    `<main><div class="map">${plan.booths.length > 0 ? svg : '<p class="empty">No booths on this plan yet.</p>'}</div>${list}</main>` +
    `</body></html>`
  );
}

/** The page shown in the frame when there is nothing to show: says why, in words a visitor understands. */
export function unavailablePage(message: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor plan unavailable</title>` +
    `<style>${STYLE}</style></head><body><p class="empty">${escapeHtml(message)}</p></body></html>`
  );
}
