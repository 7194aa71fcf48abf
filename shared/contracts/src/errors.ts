/** The one error body of the API (docs/architecture.md). */
export interface ErrorBody {
  message: string;
  /** Field messages; the client shows the first message of the first field. */
  errors?: Record<string, string[]>;
  /** Stable machine-readable code, e.g. `validation`, `unique`, `referenced`. */
  code?: string;
}

/** The one success envelope. */
export interface DataBody<T> {
  data: T;
}
