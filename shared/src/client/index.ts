export * from './http';
export * from './api';
export * from './realtime';
