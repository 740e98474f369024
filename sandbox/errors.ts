// The contract's error body: { "error": { "code", "message", ...extra } } (docs/connect-contract.md §2).

export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'INVALID_API_KEY'
  | 'ENTITLEMENT_REQUIRED'
  | 'NOT_FOUND'
  | 'TICKET_NOT_FOUND'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'SUBMISSION_NOT_APPROVED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  // Sandbox-only (simulation API), never returned by a Connect route:
  | 'CONFLICT';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

export const validation = (field: string, message: string): ApiError =>
  new ApiError(400, 'VALIDATION_ERROR', message, { field });

export const notFound = (what: string): ApiError => new ApiError(404, 'NOT_FOUND', `${what} not found`);

export const entitlementRequired = (entitlement: 'venue' | 'agenda' | 'qrScan'): ApiError =>
  new ApiError(403, 'ENTITLEMENT_REQUIRED', `The organizer's offer does not include ${entitlement}`, {
    entitlement,
  });
