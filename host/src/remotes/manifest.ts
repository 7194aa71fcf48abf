/** `/remotes.json`: remote name → URL of its `mf-manifest.json`, written at deploy time. */
export type RemotesManifest = Record<string, string>;

export const REMOTES_MANIFEST_URL = '/remotes.json';

const NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Reads and checks the deploy-time manifest. Entries that are not `name → URL` are dropped (a
 * broken entry must not take the other remotes down); relative URLs resolve against the page.
 */
export function parseRemotesManifest(value: unknown, base: string): RemotesManifest {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('remotes.json must be an object of remote name to manifest URL');
  }
  const manifest: RemotesManifest = {};
  for (const [name, url] of Object.entries(value)) {
    if (!NAME.test(name) || typeof url !== 'string' || url.trim() === '') continue;
    try {
      manifest[name] = new URL(url, base).href;
    } catch {
      // An unparsable URL leaves only that remote unavailable.
    }
  }
  return manifest;
}

export async function fetchRemotesManifest(
  url: string = REMOTES_MANIFEST_URL,
  base: string = window.location.href,
): Promise<RemotesManifest> {
  const response = await fetch(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseRemotesManifest(await response.json(), base);
}
