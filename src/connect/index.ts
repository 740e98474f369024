export * from './api';
export * from './client';
export * from './config';
export * from './errors';
export * from './paths';
export * from './schemas';
export * from './signature';
