/** What the conformance kit reports: one entry per assumption of docs/connect-contract.md it checks. */

export const STATUSES = ['holds', 'tolerated', 'differs', 'unchecked'] as const;
export type Status = (typeof STATUSES)[number];

export interface Check {
  /** Stable id, `group.name` (`submissions.since-inclusive`). */
  id: string;
  /** The endpoint or topic the check belongs to, for the table's grouping. */
  group: string;
  /** What the contract says, in one sentence. */
  assumption: string;
  status: Status;
  /** What was observed; for "differs", what a user of the integration would see fail. */
  detail: string;
  /** For "differs": what to do about it (the summary lists these). */
  action?: string;
}

export interface ConformanceOptions {
  baseUrl: string;
  apiKey: string;
  /** The company whose orders are read (`--company`); orders are unchecked without it. */
  companyId?: string;
  /** The event the event-bound checks use (`--event`); the newest suitable one otherwise. */
  eventId?: string;
  /**
   * Send the one POST of the hooks.idempotency-key check (`--probe-turn-on`): refused by a service that
   * follows the contract, so it makes nothing. Without it the run sends GET requests only.
   */
  probeTurnOn?: boolean;
  /** A delivery the user captured (`--delivery`): its headers and raw body, for the signature check. */
  delivery?: string;
  /** The signing secret of that delivery's subscription (`--secret`; never printed). */
  secret?: string;
  /** The most of one answer read (default `MAX_ANSWER_BYTES` of http.ts); a larger answer stops the run. */
  maxAnswerBytes?: number;
  /**
   * The most pages of one list read (default `MAX_PAGES` of http.ts); a list that names more is read that far,
   * and every check over it says it could not tell for the whole list.
   */
  maxListPages?: number;
  /** Called with the dialect the kit found the service to speak (`--write-dialect`). */
  onDialect?: (dialect: import('../../src/connect/dialect').Dialect) => void;
  /** Called before each group of checks runs, with the group's name (a progress line). */
  onProgress?: (group: string, index: number, total: number) => void;
}

/** A check's outcome before it is given its id, group and assumption. */
export interface Outcome {
  status: Status;
  detail: string;
  action?: string;
}

export const holds = (detail: string): Outcome => ({ status: 'holds', detail });
export const tolerated = (detail: string): Outcome => ({ status: 'tolerated', detail });
export const differs = (detail: string, action: string): Outcome => ({ status: 'differs', detail, action });
export const unchecked = (detail: string): Outcome => ({ status: 'unchecked', detail });

/** Builds the checks of one group. */
export const checkMaker =
  (group: string, prefix: string) =>
  (name: string, assumption: string, outcome: Outcome): Check => ({
    id: `${prefix}.${name}`,
    group,
    assumption,
    ...outcome,
  });

/** A usage or connection problem: the run stops (exit code 2), before any check or, with `midRun`, during them. */
export class StopError extends Error {
  midRun = false;

  constructor(message: string) {
    super(message);
    this.name = 'StopError';
  }
}
