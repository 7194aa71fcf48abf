/**
 * `GET /api/ready`: whether this instance can serve (a load balancer's readiness probe), as
 * opposed to `GET /api/health`, which says only that the process is alive and its database answers.
 */

/** The outcome of one readiness check: `ok`, or why not. */
export type ReadinessState = 'ok' | 'failing' | 'timeout';

/** What `/api/ready` answers: 200 with every check `ok`; 503 naming the ones that are not. */
export interface ReadinessAnswer {
  status: 'ready' | 'unready';
  /** Check name (`database`, `redis`, `storage`, …) → its state. */
  checks: Record<string, ReadinessState>;
  /** The checks not `ok`, in order. */
  missing: string[];
}
