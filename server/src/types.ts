import type { Bus } from './bus';
import type { Config } from './config';
import type { Db, Dialect } from './db';
import type { EntityServices } from './engine/service';
import type { FileAccessRules } from './files/access';
import type { FileStore } from './files/storage';

/** What `buildApp` decorates the Fastify instance with, for every module. */
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dialect: Dialect;
    bus: Bus;
    /** The engine's service per registry entity (`app.entities.get('courts')`). */
    entities: EntityServices;
    /** Uploaded files: on disk under `DATA_DIR/files`, or in the bucket of `MIZAN_FILES_URL`. */
    fileStore: FileStore;
    /** Who may read files owned by non-registry modules (`app.fileAccess.set(owner, rule)`). */
    fileAccess: FileAccessRules;
    /** The current instant (AppOptions.clock in tests, the system's otherwise). */
    clock: () => Date;
  }
}

export {};
