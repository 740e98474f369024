/** The whole-list readers live beside the scripts that also use them. */
export * from '../../scripts/lib/submissions';
