// The clients remote's tests check its route list only (no rendering yet): Node has what the
// imported modules need at load time.
const preset = require('../../jest.preset.cjs')({ dir: __dirname, env: 'node' });

module.exports = {
  ...preset,
  // antd's icons load @ant-design/colors, published as ESM only: let it through the transform too.
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm/)?(jotai|@tanstack|reconnecting-websocket|@ant-design\\+colors|@ant-design/colors))',
  ],
};
