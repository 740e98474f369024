/**
 * Operations a user (or an AI caller) could pick one for the other, declared by each operation with the group
 * it belongs to (`export default sibling('payments', …)`). The words rubric (scripts/lib/words.ts) asks each
 * to name another of its group by label and say when to pick which.
 */
export type SiblingGroup =
  | 'registrations'
  | 'payments'
  | 'event-changes'
  | 'registration-or-order'
  | 'event-pages'
  | 'check-in';

const declared = new Map<string, SiblingGroup>();

/** Declares the operation a member of `group`; returns it unchanged. */
export const sibling = <O extends { key: string }>(group: SiblingGroup, operation: O): O => {
  declared.set(operation.key, group);
  return operation;
};

/** The keys of the operations declared in the same group as `key` (itself included), `[]` for none. */
export const siblingsOf = (key: string): string[] => {
  const group = declared.get(key);
  return group ? [...declared].filter(([, g]) => g === group).map(([k]) => k) : [];
};
