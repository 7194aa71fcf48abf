// The remote's tests use the one shared test API server (routes → answers, requests recorded).
export { startApiServer, type Routes, type SeenRequest } from '@mizan/sdk/testing/apiServer';
