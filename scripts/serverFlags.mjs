// How Node runs the server, wherever it is started: `npm start` (scripts/run.mjs), the browser
// tests (e2e/lib/server.mjs) and the benchmarks (bench/run.mjs, bench/chat.mjs); the image's CMD
// (deploy/Dockerfile.server) and the server package's `start` script repeat them.
//
// `--max-semi-space-size=8` (MB): V8's young generation is otherwise sized for a large heap on this
// 24 GB machine, and under load it grew the server to about 345 MB of resident memory (the target:
// at most 300 during the list benchmark). With 8 MB semi-spaces: 179 MB at most, over 8 s of 50
// connections on two lists of the million-row set, and no fewer requests served (2, 4 and 8 MB
// measured alike; docs/performance.md).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'];
