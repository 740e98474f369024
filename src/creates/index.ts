/** Every create (action) of the app; `index.ts` keys them. */
export const creates: Array<{ key: string }> = [];
