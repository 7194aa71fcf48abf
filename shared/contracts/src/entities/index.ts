export * from './people';
export * from './places';
export * from './settings';
