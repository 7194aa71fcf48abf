// jsdom has no canvas, audio or fonts to fingerprint, and FingerprintJS waits for its 5-second
// timeout twice before giving up; tests use a fixed device identity instead.
module.exports = {
  sources: {},
  prepareForSources: async () => undefined,
  loadSources: () => async () => ({}),
  hashComponents: () => 'test-device',
};
