/** Every search of the app; `index.ts` keys them. */
export const searches: Array<{ key: string }> = [];
