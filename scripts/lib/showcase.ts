/**
 * What `npm start` shows: the journey's floor-plan steps (Find Floor Plan, the booking, the map embed code)
 * and the browser's screenshots use this one seeded floor plan, so the embed code printed and the map
 * photographed are the same plan.
 */
export const SHOWN_PLAN = {
  eventSlug: 'techweek-paris-2026',
  eventName: 'TechWeek',
  planId: 'plan_main',
  name: 'Main hall',
} as const;
