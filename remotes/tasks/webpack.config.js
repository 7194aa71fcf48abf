// Remote "tasks": exposes its route list as `./routes` (contract in @mizan/build/routes).
module.exports = require('@mizan/build').createConfig({
  name: 'tasks',
  kind: 'remote',
  dir: __dirname,
  exposes: { './routes': './src/routes.tsx' },
});
