import { CACHE } from '@mizan/contracts/light';
import type { EventAction, Page } from '@mizan/contracts';
import { QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ListParams } from './entityApi';
import { ApiError } from './http';
import { wsClient, type ChannelMessage, type WsClient } from './ws';

/** Client-side errors (4xx) will not change on retry; server and network failures get one more try. */
function retry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/**
 * A TanStack Query client with the seed's cache constants: unused data is kept 60 s
 * (`CACHE.defaultRetentionMs`); use `DASHBOARD_QUERY` for the dashboard's 300 s.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: CACHE.defaultRetentionMs,
        // Real-time events patch the caches, so data counts as fresh while it is in use.
        staleTime: 30_000,
        retry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The one query cache of the page (host and remotes share it through the SDK singleton). */
export const queryClient = createQueryClient();

/** Options for the dashboard query: cached 300 s. */
export const DASHBOARD_QUERY = { gcTime: CACHE.dashboardMs, staleTime: CACHE.dashboardMs } as const;

/**
 * Query keys of entity data, so that screens and the real-time patcher agree.
 *
 * @example useQuery({ queryKey: entityKeys.list('courts', params), queryFn: ... })
 */
export const entityKeys = {
  all: (name: string) => ['entity', name] as const,
  lists: (name: string) => ['entity', name, 'list'] as const,
  list: (name: string, params: ListParams = {}) => ['entity', name, 'list', params] as const,
  details: (name: string) => ['entity', name, 'detail'] as const,
  detail: (name: string, id: number | string) => ['entity', name, 'detail', Number(id)] as const,
};

type Identified = { id: number } & Record<string, unknown>;

function idOf(data: unknown): number | undefined {
  if (typeof data === 'object' && data !== null && 'id' in data) {
    const id = Number((data as { id: unknown }).id);
    return Number.isInteger(id) ? id : undefined;
  }
  return undefined;
}

function isPage(value: unknown): value is Page<Identified> {
  return typeof value === 'object' && value !== null && Array.isArray((value as Page<unknown>).items);
}

/**
 * Applies one real-time event to the cached lists and details of an entity:
 * `update`/`status` merge the row in place, `delete` removes it (and lowers `total`), `create`
 * marks the lists stale (where a new row lands depends on sort, filters and paging).
 */
export function applyEntityEvent(
  client: QueryClient,
  entityName: string,
  action: EventAction,
  data: unknown,
): void {
  const id = idOf(data);
  if (action === 'create') {
    void client.invalidateQueries({ queryKey: entityKeys.lists(entityName) });
    return;
  }
  if (id === undefined) {
    void client.invalidateQueries({ queryKey: entityKeys.all(entityName) });
    return;
  }
  if (action === 'delete') {
    client.setQueriesData<Page<Identified>>({ queryKey: entityKeys.lists(entityName) }, (page) => {
      if (!isPage(page) || !page.items.some((row) => row.id === id)) return page;
      return {
        ...page,
        items: page.items.filter((row) => row.id !== id),
        total: Math.max(0, page.total - 1),
      };
    });
    client.removeQueries({ queryKey: entityKeys.detail(entityName, id) });
    return;
  }
  const patch = data as Identified;
  client.setQueriesData<Page<Identified>>({ queryKey: entityKeys.lists(entityName) }, (page) => {
    if (!isPage(page) || !page.items.some((row) => row.id === id)) return page;
    return { ...page, items: page.items.map((row) => (row.id === id ? { ...row, ...patch } : row)) };
  });
  client.setQueryData<Identified>(entityKeys.detail(entityName, id), (row) =>
    row ? { ...row, ...patch } : row,
  );
}

/**
 * Events sent before the server took a subscription (the page was still loading, the connection
 * was back after a cut) never arrive: once it has, the entity's lists and details read before are
 * read again. A read still under way is left alone, its answer being as new as the subscription.
 */
function catchUp(client: QueryClient, entityName: string): void {
  void client.invalidateQueries({
    queryKey: entityKeys.all(entityName),
    predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.fetchStatus !== 'fetching',
  });
}

/**
 * Keeps an entity's cached lists and details live: subscribes to its channel (the definition's
 * name) while mounted and patches the query cache on each event.
 */
export function useEntityChannel(
  entityName: string,
  options: { enabled?: boolean; client?: WsClient } = {},
): void {
  const queries = useQueryClient();
  const { enabled = true, client = wsClient } = options;
  useEffect(() => {
    if (!enabled) return undefined;
    return client.subscribe(entityName, (message: ChannelMessage) => {
      if (message.type === 'event') applyEntityEvent(queries, entityName, message.action, message.data);
      else if (message.type === 'subscribed' || message.type === 'resubscribed') catchUp(queries, entityName);
    });
  }, [client, enabled, entityName, queries]);
}

/**
 * The server tells every socket `resync` when its link to the other instances (Redis) is back
 * after an outage: events published meanwhile never arrived, so every query on screen is read
 * again (and the others when next shown). Returns the function that stops following.
 *
 * @example
 * useEffect(() => followResync(), []);
 */
export function followResync(client: WsClient = wsClient, queries: QueryClient = queryClient): () => void {
  return client.events.on('message', (message) => {
    if (message.type === 'resync') void queries.invalidateQueries();
  });
}
