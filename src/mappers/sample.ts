/**
 * Static samples. Every operation's `sample` is built by its noun's mapper from the noun's sample record,
 * through `staticSample(key, build)`, which here simply builds it.
 *
 * `npm run build` loads the app once, takes the value of every sample (`builtSamples`) and bundles, in place
 * of this module, one that returns those values (scripts/build.ts). So when Zapier loads the app, no mapper
 * runs: no Intl formatter, collator or time-zone data is touched before an operation needs it. Zapier copies
 * the whole definition, samples included, on every invocation, so building them lazily would not help.
 */
const built = new Map<string, unknown>();

/** The sample named `key` (unique in the app), built by `build`. */
export const staticSample = <T>(key: string, build: () => T): T => {
  if (built.has(key)) throw new Error(`Two static samples are named "${key}".`);
  const value = build();
  built.set(key, value);
  return value;
};

/** Every sample built so far, by name. */
export const builtSamples = (): ReadonlyMap<string, unknown> => built;
