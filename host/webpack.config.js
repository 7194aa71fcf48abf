// The host shell. Built with no remotes: it reads /remotes.json at run time.
module.exports = require('@mizan/build').createConfig({ name: 'host', kind: 'host', dir: __dirname });
