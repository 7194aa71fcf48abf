// Request and answer shapes of the routes that are not an entity's CRUD, one file per area.
export * from './auth';
export * from './system';
export * from './health';
export * from './logs';
export * from './audit';
export * from './import';
export * from './files';
export * from './people';
export * from './clients';
export * from './legal';
export * from './notifications';
export * from './dashboard';
export * from './tasks';
export * from './chat';
export * from './search';
export * from './deadlines';
export * from './options';
