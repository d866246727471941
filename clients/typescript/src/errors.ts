/** The API's error body (README, "Conventions of every endpoint"): every non-2xx answer carries it. */
export interface ApiErrorBody {
  timestamp: string;
  status: number;
  error: string;
  message: string;
}

/** A non-2xx answer. `status` is the HTTP status; `message` the API's diagnostic text. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    /** The error body when the answer had the API's shape. */
    readonly body?: ApiErrorBody,
  ) {
    super(message);
  }
}

const isErrorBody = (v: unknown): v is ApiErrorBody =>
  typeof v === 'object' && v !== null && typeof (v as ApiErrorBody).message === 'string' && typeof (v as ApiErrorBody).status === 'number';

/**
 * The generated client throws the parsed body (or its text) of a non-2xx answer: turned into an
 * ApiError. Without an answer (a network failure) the original error stands.
 */
export function toApiError(thrown: unknown, response: Response | undefined): unknown {
  if (!response || response.ok) return thrown;
  if (isErrorBody(thrown)) return new ApiError(response.status, thrown.message, thrown);
  const text = typeof thrown === 'string' && thrown.trim() ? thrown.trim().slice(0, 500) : response.statusText || `HTTP ${response.status}`;
  return new ApiError(response.status, text);
}
