export * from './errors';
export * from './constants';
export * from './auth';
