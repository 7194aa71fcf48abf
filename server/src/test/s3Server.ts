import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
// s3rver ships no types: the little of it used here is typed below.
const S3rver = require('s3rver') as new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export const S3_BUCKET = 'mizan-files';
/** The keys s3rver takes by default. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A private S3-protocol server (s3rver, pure Node, objects in a temporary folder) on a free port,
 * with the bucket `mizan-files`; a test stops it and starts it again on the same port and folder
 * to play an outage.
 *
 * @example
 * const s3 = await startS3Server();
 * const env = { MIZAN_FILES_URL: s3.filesUrl('office') };
 * await s3.stop(); // the bucket unreachable
 */
export async function startS3Server(): Promise<{
  endpoint: string;
  /** `MIZAN_FILES_URL` for the bucket under `prefix`, with s3rver's keys in the URL. */
  filesUrl(prefix: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}> {
  const port = await freePort();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mizan-s3-'));
  const endpoint = `http://127.0.0.1:${port}`;
  let server: InstanceType<typeof S3rver> | null = null;
  const start = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: S3_BUCKET }],
    });
    await server.run();
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  await start();
  return {
    endpoint,
    filesUrl: (prefix) =>
      `s3://${S3_CREDENTIALS.accessKeyId}:${S3_CREDENTIALS.secretAccessKey}@${S3_BUCKET}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    start,
    stop,
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
