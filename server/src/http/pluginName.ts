/**
 * Gives a plugin the name Fastify shows in its errors and plugin tree. Without one, Fastify looks
 * for the plugin among every loaded module (`require.cache`) on each registration, twice: cheap in
 * Node, but slow where that cache is a proxy over thousands of modules, as under Jest, where the
 * engine registers one plugin per entity for every app a test starts.
 */
export function pluginNamed<T extends object>(name: string, plugin: T): T {
  (plugin as Record<symbol, unknown>)[Symbol.for('fastify.display-name')] = name;
  return plugin;
}
