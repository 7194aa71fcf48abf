// webpack + module federation configuration shared by the host and every remote.
// Facts behind the choices below were measured on a 2-core machine: webpack pinned to 5.111.1,
// `[name].js` for entries (the federation runtime breaks on hashed entry names), SWC minifier
// (Terser spends ~25 s per app on antd), `loaded-first` so one remote that is down cannot break start-up.
const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedModules } = require('./shared');
const { DEV_PORTS, devRemotesManifest } = require('./remotes');
const { compressionPlugins } = require('./compression');
const { ANTD_COMMON, antdImportsPlugin, antdLeanImports } = require('./antd');
const { buildInfo, RemoteInfoPlugin } = require('./versions');
const webpack = require('webpack');

const SERVER_URL = process.env.MIZAN_SERVER_URL || 'http://localhost:8080';

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * index.html with its title, handed to HtmlWebpackPlugin as text: a `template` file is compiled in a
 * child compilation, which ran module federation's share plugins too and left about fifty unused
 * CommonJS chunks (20 MB) in every app's dist, each then compressed at brotli's highest level.
 */
function pageTemplate(title) {
  return fs
    .readFileSync(path.join(__dirname, 'index.html'), 'utf8')
    .replace('<%= title %>', escapeHtml(title));
}

/**
 * Builds the webpack configuration of one front-end package.
 *
 * @example
 * // remotes/settings/webpack.config.js
 * module.exports = require('@mizan/build').createConfig({
 *   name: 'settings', kind: 'remote', dir: __dirname, exposes: { './routes': './src/routes.tsx' },
 * });
 *
 * @param {{
 *   name: string,
 *   kind: 'host' | 'remote',
 *   dir: string,
 *   exposes?: Record<string, string>,
 *   port?: number,
 *   title?: string,
 *   runtimePlugins?: string[],
 * }} options
 * @returns {(env: unknown, argv: { mode?: string }) => import('webpack').Configuration}
 */
function createConfig({ name, kind, dir, exposes = {}, port, title = 'ميزان', runtimePlugins = [] }) {
  if (kind !== 'host' && kind !== 'remote')
    throw new Error(`createConfig: kind must be host or remote, got ${kind}`);
  if (kind === 'remote' && !exposes['./routes'])
    throw new Error(`createConfig: remote ${name} must expose ./routes`);
  const devPort = port ?? (kind === 'host' ? 3000 : DEV_PORTS[name]);
  if (!devPort) throw new Error(`createConfig: no dev port for ${name}`);

  return (_env, argv = {}) => {
    const production = (argv.mode || process.env.NODE_ENV) === 'production';
    // Release version and the shared versions this build runs against (host: its about dialog and
    // the compatibility check of remotes; remote: `mizan-remote.json`, read by the host first).
    const info = buildInfo(name, dir);
    const favicon = path.join(dir, 'public', 'favicon.svg');
    const lean = antdLeanImports(webpack);

    /** @type {import('webpack').Configuration} */
    const config = {
      mode: production ? 'production' : 'development',
      context: dir,
      // Compiled and minified modules kept between builds (the app's node_modules/.cache/webpack):
      // a build after a change, or a release build of an app just built, redoes only what changed.
      // The configuration's own files (and what they require) invalidate it when they change.
      cache: {
        type: 'filesystem',
        buildDependencies: { config: [__filename, path.join(dir, 'webpack.config.js')] },
      },
      // The entry only imports `./bootstrap` dynamically so shared singletons can be negotiated first.
      entry: { main: './src/index.ts' },
      // Production source maps double the build time; opt in with MIZAN_SOURCE_MAPS=1.
      devtool: production
        ? process.env.MIZAN_SOURCE_MAPS === '1'
          ? 'source-map'
          : false
        : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: 'auto',
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        // Fonts and images: hashed after a dot, so the server serves them as immutable.
        assetModuleFilename: production ? 'assets/[name].[contenthash:10][ext]' : 'assets/[name][ext]',
        uniqueName: `mizan_${name}`,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js', '.jsx', '.json'],
        // `@mizan/*` packages point their `mizan:source` export at TypeScript sources.
        conditionNames: ['mizan:source', 'browser', 'import', 'module', 'require', 'default'],
        mainFields: ['browser', 'module', 'main'],
        // `antd/locale/*` is antd's CommonJS copy (lib/, with its own date-picker and pagination
        // locales); the ES one shares those modules with the components (login weight).
        alias: {
          'antd/locale': path.join(path.dirname(require.resolve('antd/package.json')), 'es', 'locale'),
        },
      },
      module: {
        rules: [
          {
            test: /\.[jt]sx?$/,
            // Workspace packages resolve to their real paths (shared/*/src), outside node_modules.
            exclude: /node_modules/,
            use: {
              loader: require.resolve('swc-loader'),
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
                  target: 'es2020',
                  experimental: { plugins: [antdImportsPlugin()] },
                },
              },
            },
          },
          ...lean.rules,
          { test: /\.css$/, use: [require.resolve('style-loader'), require.resolve('css-loader')] },
          { test: /\.(png|jpe?g|gif|svg|woff2?)$/, type: 'asset/resource' },
        ],
      },
      optimization: {
        minimize: production,
        minimizer: [
          new TerserPlugin({ minify: TerserPlugin.swcMinify, terserOptions: { compress: { passes: 2 } } }),
        ],
        // antd is shared per component (antd.js): the internals several components use (config
        // provider, CSS-in-JS, rc-* pieces) go to chunks of their own instead of into every one,
        // and the small ones nearly all of them need to one chunk (`ANTD_COMMON`, any size).
        splitChunks: {
          chunks: 'async',
          cacheGroups: {
            antdCommon: { test: ANTD_COMMON, name: 'antd-common', minSize: 0, priority: 5, enforce: true },
          },
        },
      },
      performance: { hints: false },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: kind === 'remote' ? 'remoteEntry.js' : undefined,
          exposes: kind === 'remote' ? exposes : undefined,
          // The host reads `/remotes.json` at run time: no remote URL is ever baked into a build.
          remotes: {},
          shared: sharedModules(),
          shareStrategy: 'loaded-first',
          manifest: kind === 'remote' ? { fileName: 'mf-manifest.json' } : false,
          dts: false,
          runtimePlugins,
        }),
        // Without `builtAt`: chunks reading it keep their content hash from one build to the next.
        new webpack.DefinePlugin({ __MIZAN_BUILD__: JSON.stringify({ ...info, builtAt: undefined }) }),
        ...lean.plugins,
      ],
      devServer: {
        port: devPort,
        hot: true,
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' },
        client: { overlay: { warnings: false, errors: true } },
        proxy: [{ context: ['/api'], target: SERVER_URL, ws: true, changeOrigin: true }],
      },
      stats: 'errors-warnings',
    };

    if (production) config.plugins.push(...compressionPlugins());
    if (kind === 'host') {
      const publicDir = path.join(dir, 'public');
      // Static files (theme stylesheets, favicon) are served as they are, from the site root.
      if (fs.existsSync(publicDir))
        config.plugins.push(new CopyWebpackPlugin({ patterns: [{ from: publicDir }] }));
      config.plugins.push(
        new HtmlWebpackPlugin({
          templateContent: pageTemplate(title),
          title,
          // Script tags from the site root: with `auto` they would be relative and a deep link
          // (`/admin/settings/...`) would ask for `/admin/settings/main.js`. Chunks still use `auto`.
          publicPath: '/',
          favicon: fs.existsSync(favicon) ? favicon : undefined,
        }),
      );
      config.devServer.setupMiddlewares = (middlewares, server) => {
        // In development the host's remotes come from the remotes' own dev servers (or MIZAN_REMOTES).
        server.app.get('/remotes.json', (_req, res) => res.json(devRemotesManifest()));
        return middlewares;
      };
    } else {
      config.plugins.push(new RemoteInfoPlugin(info));
      // A remote also runs alone in development: the same entry mounts its routes in a small shell.
      config.plugins.push(
        new HtmlWebpackPlugin({
          templateContent: pageTemplate(`${title} · ${name}`),
          title: `${title} · ${name}`,
          // In production the page is only a convenience; the host never loads it.
          chunks: ['main'],
        }),
      );
    }
    return config;
  };
}

module.exports = { createConfig, DEV_PORTS };
