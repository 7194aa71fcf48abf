// Remote "legal": exposes its route list as `./routes` (contract in @mizan/build/routes) and its menu as `./menu`.
module.exports = require('@mizan/build').createConfig({
  name: 'legal',
  kind: 'remote',
  dir: __dirname,
  exposes: { './routes': './src/remoteRoutes.ts', './menu': './src/menu.ts' },
});
