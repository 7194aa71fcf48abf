import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Location } from '../config';
import { AppError } from '../http/errors';
import { FileStore, STORED, type ByteRange, type StoredEntry } from './storage';

/** Bytes an upload of unknown length holds at once: the smallest part a multipart upload allows. */
const PART_SIZE = 5 * 1024 * 1024;
/** Removals sent at once by a sweep. */
const REMOVALS_AT_ONCE = 8;

/**
 * The AWS SDK and a client of the bucket, loaded on the first call: the SDK is the largest library
 * the server has, and a process whose files stay on disk never needs it.
 */
interface Sdk {
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  client: S3Client;
}

function notFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Uploaded files in an S3-compatible bucket (`MIZAN_FILES_URL=s3://bucket/prefix?...`), one object
 * per file under the prefix, named as on disk (`<name>`, `<name>.part` until its row commits).
 * Streamed both ways: an upload of unknown length goes up in 5 MB parts (one part held at a time),
 * a download or a byte range comes down as the bucket sends it.
 */
export class S3FileStore extends FileStore {
  private readonly bucket: string;
  private readonly prefix: string;
  private sdk: Promise<Sdk> | null = null;

  constructor(private readonly where: S3Location) {
    super();
    this.bucket = where.bucket;
    this.prefix = where.prefix ? `${where.prefix}/` : '';
  }

  private connect(): Promise<Sdk> {
    this.sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(
      ([s3, { Upload }]) => {
        const { where } = this;
        const client = new s3.S3Client({
          region: where.region,
          endpoint: where.endpoint ?? undefined,
          forcePathStyle: where.forcePathStyle,
          // From the URL, else the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles).
          credentials: where.credentials ?? undefined,
          // Checksums only where S3 requires them: S3-compatible servers do not all know the newer ones.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          // A bucket that cannot be reached is known quickly: the upload answers 503 rather than hang.
          maxAttempts: 2,
          requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
        });
        return { s3, Upload, client };
      },
    );
    return this.sdk;
  }

  get location(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  private objectKey(key: string): string {
    return `${this.prefix}${key}`;
  }

  protected async writeObject(key: string, source: Readable, size?: number, sha256?: string): Promise<void> {
    const params = {
      Bucket: this.bucket,
      Key: this.objectKey(key),
      Body: source,
      Metadata: sha256 ? { sha256 } : undefined,
    };
    const { s3, Upload, client } = await this.connect();
    if (size !== undefined) {
      await client.send(new s3.PutObjectCommand({ ...params, ContentLength: size }));
      return;
    }
    await new Upload({ client, params, partSize: PART_SIZE, queueSize: 1 }).done();
  }

  protected async statObject(key: string): Promise<{ size: number; sha256?: string } | null> {
    const { s3, client } = await this.connect();
    try {
      const head = await client.send(
        new s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { size: Number(head.ContentLength ?? 0), sha256: head.Metadata?.sha256 };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  protected async readObject(key: string, range?: ByteRange): Promise<Readable> {
    const { s3, client } = await this.connect();
    try {
      const answer = await client.send(
        new s3.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      // Removed since it was found: gone, not a storage failure.
      if (notFound(error)) throw new AppError('notFound', { cause: error });
      throw error;
    }
  }

  protected async renameObject(from: string, to: string): Promise<void> {
    // S3 has no rename: a copy inside the bucket, then the old name goes.
    const source = `${this.bucket}/${this.objectKey(from)}`.split('/').map(encodeURIComponent).join('/');
    const { s3, client } = await this.connect();
    await client.send(
      new s3.CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(to), CopySource: source }),
    );
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(from) }));
  }

  protected async removeObjects(keys: string[]): Promise<void> {
    // One by one (a few at once): a batch delete needs a checksum some S3-compatible servers refuse.
    const { s3, client } = await this.connect();
    for (let i = 0; i < keys.length; i += REMOVALS_AT_ONCE)
      await Promise.all(
        keys
          .slice(i, i + REMOVALS_AT_ONCE)
          .map((key) =>
            client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })),
          ),
      );
  }

  protected async *listObjects(): AsyncIterable<StoredEntry> {
    const { s3, client } = await this.connect();
    let token: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const match = STORED.exec((object.Key ?? '').slice(this.prefix.length));
        if (!match) continue;
        yield {
          name: match[1]!,
          temporary: match[2] !== undefined,
          size: Number(object.Size ?? 0),
          modifiedMs: object.LastModified?.getTime() ?? 0,
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async reachable(): Promise<boolean> {
    try {
      const { s3, client } = await this.connect();
      await client.send(new s3.HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  override close(): void {
    void this.sdk?.then(({ client }) => client.destroy());
  }
}
