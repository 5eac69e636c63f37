export * from './common';
export * from './auth';
export * from './user';
export * from './organization';
export * from './records';
