// Remote "chat": exposes its route list as `./routes` (contract in @mizan/build/routes).
module.exports = require('@mizan/build').createConfig({
  name: 'chat',
  kind: 'remote',
  dir: __dirname,
  exposes: { './routes': './src/routes.tsx' },
});
