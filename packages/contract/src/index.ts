export * from './errors';
export * from './constants';
export * from './auth';
export * from './users';
