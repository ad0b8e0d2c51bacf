export * from './schemas';
export * from './signature';
export * from './errors';
export * from './client';
export * as assumptions from './assumptions';
export * from './status-labels';
