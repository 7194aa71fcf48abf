export * from './attachments';
export * from './customers';
export * from './legal';
export * from './hearings';
export * from './people';
export * from './places';
export * from './procurations';
export * from './settings';
