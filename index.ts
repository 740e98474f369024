/**
 * The app definition: wiring only. Operations live in src/triggers, src/creates and src/searches; everything
 * about the Connect API lives in src/connect. `sealApp` keeps secrets out of every log line and error.
 */
import { defineApp, version as platformVersion } from 'zapier-platform-core';
import authentication from './src/authentication';
import { hydrateAttendee } from './src/account/attendee';
import { creates } from './src/creates';
import { searches } from './src/searches';
import { sealApp } from './src/connect/seal';
import { triggers } from './src/triggers';
import { version } from './package.json';

const byKey = <T extends { key: string }>(operations: T[]): Record<string, T> =>
  Object.fromEntries(operations.map((operation) => [operation.key, operation]));

const App = sealApp(
  defineApp({
    version,
    platformVersion,
    authentication,
    // Every request goes through z.request, which Zapier logs itself; the global http patch would only
    // duplicate that.
    flags: { skipHttpPatch: true },
    // Lazy lookups behind dehydration pointers (z.dehydrate); Zapier runs them only when a later step needs them.
    hydrators: { attendee: hydrateAttendee },
    triggers: byKey(triggers),
    searches: byKey(searches),
    creates: byKey(creates),
  }),
);

export default App;
