// Remote "legal": exposes its route list as `./routes` (contract in @mizan/build/routes).
module.exports = require('@mizan/build').createConfig({
  name: 'legal',
  kind: 'remote',
  dir: __dirname,
  exposes: { './routes': './src/routes.tsx' },
});
